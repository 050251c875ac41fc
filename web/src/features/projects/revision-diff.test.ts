import { describe, expect, it } from 'vitest';
import { sideBySide } from './revision-diff';

describe('sideBySide', () => {
  it('faces a changed line with its replacement and keeps added and removed lines on their side', () => {
    expect(sideBySide('a\nimage: x:v1\nc\nold\n', 'a\nimage: x:v2\nc\nnew1\nnew2\n')).toEqual([
      { left: 'a', right: 'a', kind: 'same' },
      { left: 'image: x:v1', right: 'image: x:v2', kind: 'changed' },
      { left: 'c', right: 'c', kind: 'same' },
      { left: 'old', right: 'new1', kind: 'changed' },
      { left: null, right: 'new2', kind: 'added' },
    ]);
    expect(sideBySide('a\nb\n', 'a\n')).toEqual([
      { left: 'a', right: 'a', kind: 'same' },
      { left: 'b', right: null, kind: 'removed' },
    ]);
  });
});
