import type { DataPath } from './locate';
import type { SchemaNode } from './types';

/** The schema nodes that may describe the value at `path` (every anyOf branch, $refs followed). */
export function schemasAt(root: SchemaNode, path: DataPath): SchemaNode[] {
  const expand = (n: SchemaNode | undefined, depth = 0): SchemaNode[] => {
    if (!n || depth > 8) return [];
    if (n.$ref)
      return [
        n,
        ...expand(
          n.$ref
            .split('/')
            .slice(1)
            .reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k], root) as SchemaNode,
          depth + 1,
        ),
      ];
    return [n, ...(n.anyOf ?? []).flatMap((b) => expand(b, depth + 1))];
  };
  let nodes = expand(root);
  for (const segment of path) {
    nodes = nodes.flatMap((n) => {
      if (typeof segment === 'number') return expand(n.items);
      const own = n.properties?.[segment];
      if (own) return expand(own);
      const pattern = Object.entries(n.patternProperties ?? {}).find(([re]) => new RegExp(re, 'u').test(segment));
      return pattern ? expand(pattern[1]) : [];
    });
  }
  return nodes;
}

/** The keys the specification has for the mapping at `path` (empty where it names its own keys, e.g. services). */
export function keysAt(root: SchemaNode, path: DataPath): string[] {
  return [...new Set(schemasAt(root, path).flatMap((n) => Object.keys(n.properties ?? {})))];
}

/** The description of the key at `path` (its last segment), if the specification has one. */
export function descriptionAt(root: SchemaNode, path: DataPath): string | null {
  return schemasAt(root, path).find((n) => n.description)?.description ?? null;
}
