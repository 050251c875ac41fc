import {
  Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  stringify,
  visit,
  type Node,
} from 'yaml';
import { COMPOSE_SERVICE_FIELDS, ComposeService, MAX_COMPOSE_BYTES } from '@berth/contract';
import { composeSchemaProblem, deref, isMergeKey, mapsOf } from '@berth/contract/compose-schema';
import { PayloadTooLargeError, ValidationError } from '../errors';
import { MASK, maskEnvEntry, maskEnvValues } from '../lib/env-mask';

/** Real compose files are a handful of levels deep; far deeper is an attack on the parser. */
export const MAX_YAML_DEPTH = 32;
/**
 * How big a file may become once its aliases are expanded, in nodes plus scalar characters: 16
 * times the largest file accepted. Real files that reuse anchors heavily (Sentry's self-hosted
 * file: 40 services each merging defaults that merge defaults) stay far below it; a "billion
 * laughs" file exceeds it after a few levels. A count of alias uses refused those real files.
 */
export const MAX_EXPANDED_SIZE = 16 * MAX_COMPOSE_BYTES;

/**
 * The size `doc` would have with every alias expanded, found without expanding it: each node's
 * size is computed once and an alias costs its target's size. Stops counting past `limit`, so
 * the walk is linear in the file and the expansion that follows (toJS) is bounded in time too.
 */
export function expandedSize(doc: Document, limit = MAX_EXPANDED_SIZE): number {
  const sizes = new Map<unknown, number>();
  const sizeOf = (node: unknown, path: Set<unknown>): number => {
    if (node === null || node === undefined) return 1;
    const known = sizes.get(node);
    if (known !== undefined) return known;
    // An alias inside its own anchor cannot be expanded at all; count it as over the limit.
    if (path.has(node)) return limit + 1;
    path.add(node);
    let size = 1;
    if (isAlias(node)) size = sizeOf(node.resolve(doc), path);
    else if (isScalar(node)) size += typeof node.value === 'string' ? node.value.length : 1;
    else if (isMap(node)) {
      for (const pair of node.items) {
        size += sizeOf(pair.key, path) + sizeOf(pair.value, path);
        if (size > limit) break;
      }
    } else if (isSeq(node)) {
      for (const item of node.items) {
        size += sizeOf(item, path);
        if (size > limit) break;
      }
    }
    path.delete(node);
    sizes.set(node, size);
    return size;
  };
  return sizeOf(doc.contents, new Set());
}

/** The plain data of a parsed file, refused when its aliases would expand past MAX_EXPANDED_SIZE. */
export function expandCompose(doc: Document): unknown {
  if (expandedSize(doc) > MAX_EXPANDED_SIZE)
    throw yamlError(
      `too many aliases: expanded, the file would exceed ${MAX_EXPANDED_SIZE / 1024 / 1024} MiB (nodes and characters)`,
    );
  return doc.toJS({ maxAliasCount: -1 });
}

export interface ParsedCompose {
  doc: Document.Parsed;
  data: Record<string, unknown>;
  lines: LineCounter;
}

export interface ComposeSummary {
  version: string | null;
  services: Record<string, ComposeService>;
  networks: string[];
  volumes: string[];
}

export function checkComposeSize(content: string): void {
  const bytes = Buffer.byteLength(content, 'utf8');
  if (bytes > MAX_COMPOSE_BYTES) {
    throw new PayloadTooLargeError(
      `The compose file is ${Math.ceil(bytes / 1024)} KiB; at most ${MAX_COMPOSE_BYTES / 1024} KiB is accepted.`,
    );
  }
}

/** Iterative so a deep file cannot exhaust our own stack while we measure it. */
function depthOf(root: Node | null): number {
  let max = 0;
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (depth > max) max = depth;
    if (depth > MAX_YAML_DEPTH) return depth;
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isScalar(pair.key)) stack.push([pair.key, depth + 1]);
        stack.push([pair.value, depth + 1]);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) stack.push([item, depth + 1]);
    }
  }
  return max;
}

function yamlError(problem: string, line?: number, col?: number): ValidationError {
  const where = line !== undefined ? `line ${line}, column ${col ?? 1}` : null;
  const detail = where ? `Invalid YAML at ${where}: ${problem}` : `Invalid compose file: ${problem}`;
  return new ValidationError(detail, [{ field: 'content', message: detail }]);
}

/**
 * Parses compose YAML with limits on size, depth and alias expansion, so a hostile file costs
 * milliseconds. Merge keys (`<<:`) are honoured, as compose honours them, so `data` is the model
 * the CLI will see. Errors say the line and column.
 */
export function parseCompose(content: string): ParsedCompose {
  checkComposeSize(content);
  const lines = new LineCounter();
  const doc = parseDocument(content, {
    uniqueKeys: true,
    prettyErrors: true,
    strict: true,
    merge: true,
    lineCounter: lines,
  });
  const first = doc.errors[0];
  if (first) {
    const pos = first.linePos?.[0];
    // A stack overflow inside the parser is reported as an error at the point it gave up.
    const problem = /call stack/i.test(first.message)
      ? `nested deeper than ${MAX_YAML_DEPTH} levels`
      : first.message.replace(/ at line \d+, column \d+.*$/s, '');
    throw yamlError(problem, pos?.line, pos?.col);
  }
  if (depthOf(doc.contents) > MAX_YAML_DEPTH) throw yamlError(`nested deeper than ${MAX_YAML_DEPTH} levels`);
  let data: unknown;
  try {
    data = expandCompose(doc);
  } catch (err) {
    if (err instanceof ReferenceError || err instanceof RangeError)
      throw yamlError(`the aliases cannot be expanded: ${err.message}`);
    throw err;
  }
  if (data === null || data === undefined) throw yamlError('the file is empty.');
  if (typeof data !== 'object' || Array.isArray(data))
    throw yamlError('the top level must be a mapping (services:, networks:, volumes: ...).');
  const services = (data as Record<string, unknown>).services;
  if (services !== undefined && services !== null && (typeof services !== 'object' || Array.isArray(services))) {
    throw yamlError('services must be a mapping of service name to its definition.');
  }
  return { doc, data: data as Record<string, unknown>, lines };
}

/**
 * Refuses a file whose structure breaks the Compose Specification's JSON schema (a list where a
 * mapping belongs, an unknown key, a value of the wrong kind), naming the line, column and path.
 * Interpolated values (`${PORT:-80}`) and `x-` extensions are accepted wherever compose takes them.
 */
export function checkComposeSchema({ doc, data, lines }: ParsedCompose): void {
  const problem = composeSchemaProblem(doc, data);
  if (!problem) return;
  const pos = problem.span ? lines.linePos(problem.span.from) : null;
  const where = pos ? ` at line ${pos.line}, column ${pos.col}` : '';
  const detail = `The file breaks the Compose Specification${where} (${problem.path}): ${problem.message}.`;
  throw new ValidationError(detail, [{ field: 'content', message: detail }]);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The fields the UI shows, as written; a field with an unexpected shape is left out. */
function summariseService(raw: unknown): ComposeService {
  const out: Record<string, unknown> = {};
  if (!isRecord(raw)) return out;
  for (const field of COMPOSE_SERVICE_FIELDS) {
    if (raw[field] === undefined) continue;
    const parsed = ComposeService.shape[field].safeParse(raw[field]);
    if (parsed.success && parsed.data !== undefined) out[field] = parsed.data;
  }
  return out as ComposeService;
}

export function summarise(data: Record<string, unknown>): ComposeSummary {
  const v = data.version;
  const services: Record<string, ComposeService> = {};
  if (isRecord(data.services))
    for (const [name, def] of Object.entries(data.services)) services[name] = summariseService(def);
  return {
    version: typeof v === 'string' || typeof v === 'number' ? String(v) : null,
    services,
    networks: isRecord(data.networks) ? Object.keys(data.networks) : [],
    volumes: isRecord(data.volumes) ? Object.keys(data.volumes) : [],
  };
}

/** Replaces every value under an `environment:` node (map or KEY=value list), through aliases and merges. */
function redactEnvNode(doc: Document, node: unknown): void {
  const n = deref(doc, node);
  if (isSeq(n)) {
    for (const item of n.items) {
      const v = deref(doc, item);
      if (isScalar(v) && typeof v.value === 'string') v.value = maskEnvEntry(v.value);
    }
    return;
  }
  for (const m of mapsOf(doc, n)) {
    for (const pair of m.items) {
      if (isMergeKey(pair.key)) continue;
      const v = deref(doc, pair.value);
      if (isScalar(v) && v.value !== null) v.value = MASK;
    }
  }
}

/** Whether every environment value of the resolved model (aliases and merges applied) is redacted. */
function fullyRedacted(text: string): boolean {
  const data = expandCompose(parseDocument(text, { merge: true }));
  const services = isRecord(data) && isRecord(data.services) ? Object.values(data.services) : [];
  return services.every((svc) => {
    const env = isRecord(svc) ? svc.environment : undefined;
    if (Array.isArray(env))
      return env.every((e) => typeof e !== 'string' || !e.includes('=') || e.endsWith(`=${MASK}`));
    if (isRecord(env)) return Object.values(env).every((v) => v === null || v === MASK);
    return env === undefined || env === null;
  });
}

/** The resolved model with environment values redacted and the x- blocks (anchor holders) left out. */
function redactedModel(data: Record<string, unknown>): string {
  const copy = structuredClone(Object.fromEntries(Object.entries(data).filter(([k]) => !k.startsWith('x-'))));
  if (isRecord(copy.services)) {
    for (const svc of Object.values(copy.services)) {
      if (!isRecord(svc)) continue;
      const env = svc.environment;
      if (Array.isArray(env) || isRecord(env))
        svc.environment = maskEnvValues(env as string[] | Record<string, unknown>);
      else if (env !== undefined && env !== null) svc.environment = MASK;
    }
  }
  return `# Rewritten by Berth from the resolved file (aliases and merges applied) to redact environment values.\n${stringify(copy)}`;
}

/**
 * The file with every environment value replaced by the mask and its comments dropped, layout kept (support
 * bundles). Values reached through anchors, aliases and merge keys are redacted at their
 * source; the result is checked on the resolved model, and if anything would still show, the
 * resolved model itself (redacted) is shipped instead.
 */
export function redactEnvironment(parsed: ParsedCompose): string {
  const doc = parsed.doc.clone();
  const services = deref(doc, doc.get('services'));
  for (const m of mapsOf(doc, services)) {
    for (const pair of m.items) {
      if (isMergeKey(pair.key)) continue;
      for (const svc of mapsOf(doc, pair.value)) {
        for (const field of svc.items)
          if (isScalar(field.key) && field.key.value === 'environment') redactEnvNode(doc, field.value);
      }
    }
  }
  // Comments go too: a commented-out entry (`# - DB_PASSWORD=old`) or a trailing note holds values as often as not.
  doc.commentBefore = null;
  doc.comment = null;
  visit(doc, {
    Node(_key, node) {
      node.commentBefore = null;
      node.comment = null;
    },
  });
  const text = doc.toString();
  return fullyRedacted(text) ? text : redactedModel(parsed.data);
}
