import YAML from 'yaml';
import {
  CONTAINER_NAME,
  RESTART_POLICIES,
  parseImageReference,
  type SkippedItem,
  type TemplateItemData,
} from '@berth/contract';
import {
  ItemError,
  isObj,
  parseCapAdd,
  parseCommand,
  parseDevices,
  parseEnv,
  parseLabels,
  parsePorts,
  parseSysctls,
  parseVolumes,
  scalar,
} from './template-parse-fields';

/** The whole catalogue cannot be used (not JSON/YAML, wrong shape, nothing usable). */
export class CatalogueError extends Error {}

export interface ParsedCatalogue {
  items: TemplateItemData[];
  skipped: SkippedItem[];
}

export const MAX_ITEMS = 2000;
const MAX_DEPTH = 64;
const MAX_TEXT = 10_000;

/** Which parser to try first: YAML for .yml/.yaml paths or YAML content types, else JSON when it looks like JSON. */
function decode(text: string, pathname: string, contentType: string | null): unknown {
  const yamlHint = /\.ya?ml$/i.test(pathname) || /yaml/i.test(contentType ?? '');
  const looksJson = /^\s*[[{]/.test(text);
  if (looksJson && !yamlHint) {
    try {
      return JSON.parse(text);
    } catch (err) {
      // The parser's message quotes the body; only its position is safe to repeat.
      const at = /position (\d+)/.exec(String(err))?.[1];
      throw new CatalogueError(`The catalogue is not valid JSON${at ? ` (error at character ${at})` : ''}.`);
    }
  }
  try {
    return YAML.parse(text, { schema: 'core', maxAliasCount: 100, prettyErrors: false });
  } catch (err) {
    const pos = (err as { linePos?: [{ line: number; col: number }] }).linePos?.[0];
    throw new CatalogueError(
      `The catalogue is not valid JSON or YAML${pos ? ` (error at line ${pos.line}, column ${pos.col})` : ''}.`,
    );
  }
}

function tooDeep(value: unknown, depth = 0): boolean {
  if (depth > MAX_DEPTH) return true;
  if (Array.isArray(value)) return value.some((v) => tooDeep(v, depth + 1));
  if (isObj(value)) return Object.values(value).some((v) => tooDeep(v, depth + 1));
  return false;
}

/** Portainer v1 and Yacht: a list. Portainer v2/v3: `{version, templates: [...]}`. One object with a title: one app. */
function entriesOf(doc: unknown): unknown[] {
  if (Array.isArray(doc)) return doc;
  if (isObj(doc) && Array.isArray(doc.templates)) return doc.templates;
  if (isObj(doc) && typeof doc.title === 'string') return [doc];
  throw new CatalogueError(
    'The catalogue must be a list of templates or an object with a "templates" list (Portainer v2/v3).',
  );
}

const text = (v: unknown, max = MAX_TEXT) => (scalar(v) ?? '').slice(0, max);

/** A logo must be an http(s) picture; a relative one is read against the catalogue's own URL. */
function logoUrl(v: unknown, base: string): string {
  const raw = scalar(v)?.trim();
  if (!raw) return '';
  try {
    const url = new URL(raw, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : '';
  } catch {
    return '';
  }
}

/** A container name from the entry's name or title: lower case, only characters the engine accepts. */
export function containerName(name: string | undefined, title: string): string {
  if (name && CONTAINER_NAME.test(name) && name.length <= 128) return name;
  const slug = (name || title)
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '-')
    .replace(/^[^a-z0-9]+|-+$/g, '')
    .slice(0, 64);
  return slug.length >= 2 ? slug : `app${slug}`;
}

function restartPolicy(v: unknown): TemplateItemData['restart_policy'] {
  const p = scalar(v)?.trim().toLowerCase();
  if (p === 'no') return 'none';
  return (RESTART_POLICIES as readonly string[]).includes(p ?? '') ? (p as TemplateItemData['restart_policy']) : null;
}

function number(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? Number(v) : NaN;
  return Number.isFinite(n) && n >= 0 ? n : null;
}

/** Catalogues write the type as a number, a numeric string or a word. */
const TYPE_WORDS: Record<string, number> = { container: 1, swarm: 2, stack: 3 };

function templateType(raw: Record<string, unknown>): number {
  if (raw.type === undefined || raw.type === null) return raw.stackfile !== undefined || isObj(raw.repository) ? 3 : 1;
  const word = typeof raw.type === 'string' ? TYPE_WORDS[raw.type.trim().toLowerCase()] : undefined;
  const type = word ?? Number(raw.type);
  if (type !== 1 && type !== 2 && type !== 3) throw new ItemError(`unknown type ${String(raw.type)}`);
  return type;
}

/**
 * The raw compose file of a stack template: `repository: {url, stackfile}` (Portainer) or a
 * `stackfile` URL of its own. Repository pages of the common git hosts become their raw-file URL.
 */
export function stackFileUrl(raw: Record<string, unknown>, catalogueUrl: string): string {
  const repo = isObj(raw.repository) ? raw.repository : null;
  const file = scalar(repo?.stackfile ?? raw.stackfile)?.trim();
  if (!file) throw new ItemError('stack template without a stackfile');
  const repoUrl = scalar(repo?.url)?.trim();
  let url: URL;
  try {
    url = repoUrl ? rawFileUrl(new URL(repoUrl), file) : new URL(file, catalogueUrl);
  } catch {
    throw new ItemError('stackfile is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ItemError('stackfile must be an http(s) URL');
  return url.toString();
}

function rawFileUrl(repo: URL, file: string): URL {
  const [owner, name] = repo.pathname
    .replace(/\.git$/, '')
    .split('/')
    .filter(Boolean);
  const path = file.replace(/^\/+/, '');
  if (repo.hostname === 'github.com' && owner && name)
    return new URL(`https://raw.githubusercontent.com/${owner}/${name}/HEAD/${path}`);
  if (repo.hostname === 'gitlab.com' && owner && name)
    return new URL(`https://gitlab.com/${owner}/${name}/-/raw/HEAD/${path}`);
  if (repo.hostname === 'bitbucket.org' && owner && name)
    return new URL(`https://bitbucket.org/${owner}/${name}/raw/HEAD/${path}`);
  return new URL(path, repo.toString().replace(/\/?$/, '/'));
}

/** One catalogue entry → our item, or ItemError with the reason. */
export function parseItem(raw: unknown, catalogueUrl: string): TemplateItemData {
  if (!isObj(raw)) throw new ItemError('not an object');
  const type = templateType(raw);
  if (/^windows$/i.test(scalar(raw.platform)?.trim() ?? '')) throw new ItemError('Windows-only template');
  const title = scalar(raw.title)?.trim();
  if (!title) throw new ItemError('title is missing');
  if (title.length > 255) throw new ItemError('title is longer than 255 characters');
  const stack =
    type === 1
      ? null
      : { kind: type === 2 ? ('swarm' as const) : ('compose' as const), url: stackFileUrl(raw, catalogueUrl) };
  const image = scalar(raw.image)?.trim() ?? '';
  if (!stack) {
    if (!image) throw new ItemError('image is missing');
    const ref = parseImageReference(image);
    if ('error' in ref) throw new ItemError(`image: ${ref.error}`);
  }
  return {
    type,
    title,
    name: containerName(scalar(raw.name)?.trim(), title),
    description: text(raw.description),
    logo: logoUrl(raw.logo, catalogueUrl),
    notes: text(raw.note ?? raw.notes),
    image: stack ? '' : image,
    platform: text(raw.platform, 64) || 'linux',
    categories: Array.isArray(raw.categories)
      ? raw.categories.filter((c): c is string => typeof c === 'string').map((c) => c.slice(0, 64))
      : [],
    command: parseCommand(raw.command),
    restart_policy: restartPolicy(raw.restart_policy),
    network: text(raw.network, 255),
    network_mode: text(raw.network_mode, 255),
    ports: parsePorts(raw.ports),
    volumes: parseVolumes(raw.volumes),
    env: parseEnv(raw.env),
    devices: parseDevices(raw.devices),
    labels: parseLabels(raw.labels),
    sysctls: parseSysctls(raw.sysctls),
    cap_add: parseCapAdd(raw.cap_add),
    cpus: number(raw.cpus),
    mem_limit: scalar(raw.mem_limit)?.trim() || null,
    privileged: raw.privileged === true || raw.privileged === 'true',
    interactive: raw.interactive === true || raw.interactive === 'true',
    hostname: text(raw.hostname, 253),
    stack,
  };
}

/**
 * Reads a catalogue in any supported format. An entry that cannot be used is reported in
 * `skipped` and the rest is kept; the catalogue fails only when nothing in it is usable.
 */
export function parseCatalogue(body: string, source: { url: string; contentType: string | null }): ParsedCatalogue {
  const textBody = body.replace(/^\uFEFF/, '');
  if (/text\/html/i.test(source.contentType ?? '') || /^\s*</.test(textBody)) {
    throw new CatalogueError('The URL returned an HTML page, not a template catalogue (JSON or YAML).');
  }
  const doc = decode(textBody, new URL(source.url).pathname, source.contentType);
  if (tooDeep(doc)) throw new CatalogueError(`The catalogue is nested deeper than ${MAX_DEPTH} levels.`);
  const entries = entriesOf(doc);
  if (entries.length > MAX_ITEMS)
    throw new CatalogueError(`The catalogue lists ${entries.length} templates; at most ${MAX_ITEMS} are accepted.`);
  const items: TemplateItemData[] = [];
  const skipped: SkippedItem[] = [];
  entries.forEach((raw, index) => {
    try {
      items.push(parseItem(raw, source.url));
    } catch (err) {
      if (!(err instanceof ItemError)) throw err;
      const title = isObj(raw) ? (scalar(raw.title)?.slice(0, 255) ?? null) : null;
      skipped.push({ index, title, reason: err.message.slice(0, 300) });
    }
  });
  if (items.length === 0) {
    const why = skipped.length ? ` ${skipped.length} entries were unusable; the first: ${skipped[0]!.reason}.` : '';
    throw new CatalogueError(`The catalogue has no usable templates.${why}`);
  }
  return { items, skipped };
}
