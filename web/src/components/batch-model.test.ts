import { describe, expect, it } from 'vitest';
import { countOf, pageState, summaryText, togglePage, toggleRows } from './batch-model';

const page = ['a', 'b', 'c', 'd', 'e'];

describe('batch selection model', () => {
  it('selects one row, then a range with shift from the last clicked row', () => {
    const one = toggleRows(new Set(), page, 'b', true, null, false);
    expect([...one]).toEqual(['b']);
    expect([...toggleRows(one, page, 'd', true, 'b', true)].sort()).toEqual(['b', 'c', 'd']);
    // Upwards as well, and unchecking a range.
    expect([...toggleRows(new Set(page), page, 'a', false, 'c', true)].sort()).toEqual(['d', 'e']);
  });

  it('toggles only the clicked row when the anchor is not on this page', () => {
    expect([...toggleRows(new Set(), page, 'c', true, 'zz', true)]).toEqual(['c']);
  });

  it('selects the whole page from the header box, keeping rows of other pages', () => {
    const some = new Set(['b', 'other']);
    expect(pageState(some, page)).toBe('some');
    const all = togglePage(some, page);
    expect(pageState(all, page)).toBe('all');
    expect(all.has('other')).toBe(true);
    expect([...togglePage(all, page)]).toEqual(['other']);
  });

  it('summarises a batch naming each failure with its reason', () => {
    const results = [
      ...Array.from({ length: 7 }, (_, i) => ({ name: `web-${i}`, ok: true, status: 200 })),
      { name: 'web-9', ok: false, status: 404, detail: 'No such container: web-9' },
    ];
    expect(summaryText(results, 'stopped')).toBe('7 stopped, 1 failed: web-9 — No such container: web-9');
    expect(summaryText(results.slice(0, 2), 'removed')).toBe('2 removed.');
    expect(countOf(1, 'app')).toBe('1 app');
    expect(countOf(3, 'app')).toBe('3 apps');
  });
});
