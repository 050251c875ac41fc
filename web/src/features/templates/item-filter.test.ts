import { describe, expect, it } from 'vitest';
import { filterItems } from './item-filter';

const items = [{ title: 'Zulu' }, { title: 'alpha' }, { title: 'Beta (C++)' }, { title: 'app 10' }, { title: 'app 9' }];

describe('filterItems', () => {
  it('sorts by title, ignoring case and ordering numbers naturally', () => {
    expect(filterItems(items, '').map((i) => i.title)).toEqual(['alpha', 'app 9', 'app 10', 'Beta (C++)', 'Zulu']);
  });
  it('matches the title case-insensitively', () => {
    expect(filterItems(items, 'ZU').map((i) => i.title)).toEqual(['Zulu']);
  });
  it('takes regular-expression characters literally', () => {
    expect(filterItems(items, 'c++').map((i) => i.title)).toEqual(['Beta (C++)']);
    expect(filterItems(items, '.*')).toEqual([]);
  });
});
