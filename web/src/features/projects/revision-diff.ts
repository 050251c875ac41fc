import { diffLines } from 'diff';

/** One row of a side-by-side diff: the old line (left) and the new one (right); null where a side has none. */
export interface DiffRow {
  left: string | null;
  right: string | null;
  kind: 'same' | 'removed' | 'added' | 'changed';
}

const lines = (text: string) => text.replace(/\n$/, '').split('\n');

/** The two texts as side-by-side rows: removed lines face the lines added in their place. */
export function sideBySide(from: string, to: string): DiffRow[] {
  const rows: DiffRow[] = [];
  const parts = diffLines(from, to);
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (!part.added && !part.removed) {
      rows.push(...lines(part.value).map((l): DiffRow => ({ left: l, right: l, kind: 'same' })));
      continue;
    }
    const next = parts[i + 1];
    const removed = part.removed ? lines(part.value) : [];
    const added = part.added ? lines(part.value) : next?.added ? lines(next.value) : [];
    if (part.removed && next?.added) i++;
    for (let j = 0; j < Math.max(removed.length, added.length); j++) {
      const [left, right] = [removed[j] ?? null, added[j] ?? null];
      rows.push({
        left,
        right,
        kind: left !== null && right !== null ? 'changed' : left !== null ? 'removed' : 'added',
      });
    }
  }
  return rows;
}
