import { isAlias, isMap, isScalar, isSeq, type Document, type Node, type Pair, type YAMLMap } from 'yaml';

/** A `<<` merge key (parsed with merges on, its value is a symbol). */
export const isMergeKey = (key: unknown) => isScalar(key) && (typeof key.value === 'symbol' || key.value === '<<');

/** The node an alias points to (in `doc`), or the node itself. */
export const deref = (doc: Document, node: unknown): unknown => (isAlias(node) ? node.resolve(doc) : node);

/** Each map a mapping node means, following aliases and merge keys (`<<: *base`, `<<: [*a, *b]`); its own first. */
export function mapsOf(doc: Document, node: unknown, seen = new Set<unknown>()): YAMLMap[] {
  const n = deref(doc, node);
  if (!isMap(n) || seen.has(n)) return [];
  seen.add(n);
  const out: YAMLMap[] = [n];
  for (const pair of n.items) {
    if (!isMergeKey(pair.key)) continue;
    const v = deref(doc, pair.value);
    for (const m of isSeq(v) ? v.items : [v]) out.push(...mapsOf(doc, m, seen));
  }
  return out;
}

export type DataPath = readonly (string | number)[];

/** Where a node is in the text: [start, end) offsets. */
export interface Span {
  from: number;
  to: number;
}

const spanOf = (node: unknown): Span | null => {
  const range = (node as Node | null)?.range;
  return range ? { from: range[0], to: range[1] } : null;
};

/**
 * Where the value at `path` (a path in the resolved data, as a JSON schema validator reports it)
 * is written, through aliases and merge keys; with `key`, where its key is. A path that goes
 * further than the text (a merged or defaulted value) stops at the deepest node it reached.
 */
export function locate(doc: Document, path: DataPath, { key = false } = {}): Span | null {
  let node: unknown = doc.contents;
  let found: Span | null = spanOf(node);
  for (const [i, segment] of path.entries()) {
    const here = deref(doc, node);
    let pair: Pair | undefined;
    if (isSeq(here)) node = here.items[Number(segment)];
    else {
      pair = mapsOf(doc, here)
        .flatMap((m) => m.items)
        .find((p) => !isMergeKey(p.key) && isScalar(p.key) && String(p.key.value) === String(segment));
      node = pair?.value;
    }
    if (key && i === path.length - 1 && pair) return spanOf(pair.key) ?? found;
    const span = spanOf(node);
    if (!span) return found;
    found = span;
  }
  return found;
}
