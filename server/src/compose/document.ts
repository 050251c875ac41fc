import { Document, isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import { COMPOSE_SERVICE_FIELDS, ComposeService, ErrorCode, MAX_COMPOSE_BYTES } from '@berth/contract';
import { AppError, ValidationError } from '../errors';

/** Real compose files are a handful of levels deep; far deeper is an attack on the parser. */
export const MAX_YAML_DEPTH = 32;
/** Aliases a file may expand; a "billion laughs" file needs thousands. */
export const MAX_ALIAS_COUNT = 100;

export interface ParsedCompose {
  doc: Document.Parsed;
  data: Record<string, unknown>;
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
    throw new AppError(413, ErrorCode.payloadTooLarge, `The compose file is ${Math.ceil(bytes / 1024)} KiB; at most ${MAX_COMPOSE_BYTES / 1024} KiB is accepted.`);
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
  const doc = parseDocument(content, { uniqueKeys: true, prettyErrors: true, strict: true, merge: true });
  const first = doc.errors[0];
  if (first) {
    const pos = first.linePos?.[0];
    // A stack overflow inside the parser is reported as an error at the point it gave up.
    const problem = /call stack/i.test(first.message) ? `nested deeper than ${MAX_YAML_DEPTH} levels` : first.message.replace(/ at line \d+, column \d+.*$/s, '');
    throw yamlError(problem, pos?.line, pos?.col);
  }
  if (depthOf(doc.contents) > MAX_YAML_DEPTH) throw yamlError(`nested deeper than ${MAX_YAML_DEPTH} levels`);
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    if (err instanceof ReferenceError || err instanceof RangeError) throw yamlError(`too many aliases (at most ${MAX_ALIAS_COUNT} expansions): ${err.message}`);
    throw err;
  }
  if (data === null || data === undefined) throw yamlError('the file is empty.');
  if (typeof data !== 'object' || Array.isArray(data)) throw yamlError('the top level must be a mapping (services:, networks:, volumes: ...).');
  const services = (data as Record<string, unknown>).services;
  if (services !== undefined && services !== null && (typeof services !== 'object' || Array.isArray(services))) {
    throw yamlError('services must be a mapping of service name to its definition.');
  }
  return { doc, data: data as Record<string, unknown> };
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
  if (isRecord(data.services)) for (const [name, def] of Object.entries(data.services)) services[name] = summariseService(def);
  return {
    version: typeof v === 'string' || typeof v === 'number' ? String(v) : null,
    services,
    networks: isRecord(data.networks) ? Object.keys(data.networks) : [],
    volumes: isRecord(data.volumes) ? Object.keys(data.volumes) : [],
  };
}

/** The file with every environment value replaced by ***, comments and layout kept (support bundles). */
export function redactEnvironment(parsed: ParsedCompose): string {
  const doc = parsed.doc.clone();
  const services = doc.get('services');
  if (!isMap(services)) return doc.toString();
  for (const pair of services.items) {
    if (!isMap(pair.value)) continue;
    const env = pair.value.get('environment');
    if (isMap(env)) {
      for (const item of env.items) if (isScalar(item.value) && item.value.value !== null) item.value.value = '***';
    } else if (isSeq(env)) {
      for (const item of env.items) {
        if (isScalar(item) && typeof item.value === 'string' && item.value.includes('=')) item.value = `${item.value.split('=')[0]}=***`;
      }
    }
  }
  return doc.toString();
}
