import type { BatchItemResult } from '@berth/contract';

/**
 * A click on a row's box. With shift and an earlier click on this page (the anchor), every row
 * between the two takes the clicked row's new state, like a file manager.
 */
export function toggleRows(
  selected: ReadonlySet<string>,
  pageKeys: readonly string[],
  key: string,
  checked: boolean,
  anchor: string | null,
  shift: boolean,
): Set<string> {
  const next = new Set(selected);
  const from = shift && anchor !== null ? pageKeys.indexOf(anchor) : -1;
  const to = pageKeys.indexOf(key);
  const range = from === -1 || to === -1 ? [key] : pageKeys.slice(Math.min(from, to), Math.max(from, to) + 1);
  for (const k of range) {
    if (checked) next.add(k);
    else next.delete(k);
  }
  return next;
}

/** The header box: checked when every row of the page is selected, indeterminate when some are. */
export function pageState(selected: ReadonlySet<string>, pageKeys: readonly string[]): 'all' | 'some' | 'none' {
  const count = pageKeys.filter((k) => selected.has(k)).length;
  return count === 0 ? 'none' : count === pageKeys.length ? 'all' : 'some';
}

/** The header box clicked: selects the whole page, or clears it when it was all selected. */
export function togglePage(selected: ReadonlySet<string>, pageKeys: readonly string[]): Set<string> {
  const next = new Set(selected);
  const select = pageState(selected, pageKeys) !== 'all';
  for (const k of pageKeys) {
    if (select) next.add(k);
    else next.delete(k);
  }
  return next;
}

/** `7 stopped, 1 failed: web-3 — No such container.`; every failure is named with its reason. */
export function summaryText(results: readonly BatchItemResult[], done: string): string {
  const failed = results.filter((r) => !r.ok);
  const ok = `${results.length - failed.length} ${done}`;
  if (failed.length === 0) return `${ok}.`;
  return `${ok}, ${failed.length} failed: ${failed.map((r) => `${r.name} — ${r.detail ?? `status ${r.status}`}`).join('; ')}`;
}

/** `1 app`, `3 apps`. */
export const countOf = (n: number, noun: string, plural = `${noun}s`) => `${n} ${n === 1 ? noun : plural}`;
