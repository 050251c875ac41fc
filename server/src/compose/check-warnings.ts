import YAML, { isMap, type Document } from 'yaml';
import { composeSchema, composeServiceKeys, composeTopLevelKeys, keysAt } from '@berth/contract/compose-schema';
import { interpolate } from './interpolate';

/**
 * CLI check failures that only say something is not there yet (a build context, an env file) or
 * that the installed CLI is older than the file (a key it does not know, a boolean where v1 wants a
 * string, an interpolation form only v2 reads). A save is not refused for
 * them: the user gets a warning and the check goes on with the offending part left out of the
 * check's copy, so every other error is still found. Each entry turns the CLI's words into the
 * warning and takes the part out of the copy.
 */
interface Relaxation {
  match: RegExp;
  warn: (m: RegExpExecArray) => string;
  drop: (doc: Document, m: RegExpExecArray) => boolean;
}

/** The keys of a CLI message's quoted list: `'include', 'name'`. */
const keysIn = (list: string) => [...list.matchAll(/'([^']+)'/g)].map((k) => k[1]!);

const servicesOf = (doc: Document): [string, YAML.YAMLMap][] => {
  const services = doc.get('services');
  if (!isMap(services)) return [];
  return services.items.flatMap((pair) =>
    isMap(pair.value)
      ? [[String(YAML.isScalar(pair.key) ? pair.key.value : pair.key), pair.value] as [string, YAML.YAMLMap]]
      : [],
  );
};

/** Removes `key` from every service that has it; a service left with neither image nor build gets a stand-in image. */
function dropServiceKey(doc: Document, key: string): boolean {
  let dropped = false;
  for (const [, service] of servicesOf(doc)) {
    if (!service.has(key)) continue;
    service.delete(key);
    if (!service.has('image') && !service.has('build')) service.set('image', 'berth-check-stand-in');
    dropped = true;
  }
  return dropped;
}

/**
 * Removes `key` from the mapping at `path` (or from the mappings right under it: the CLI names
 * `services.web.depends_on` for a key of `depends_on.db`) where the specification has that key there.
 */
function dropNestedKey(doc: Document, path: string[], key: string): boolean {
  const node = doc.getIn(path);
  if (!isMap(node)) return false;
  const places: [string[], unknown][] = [
    [path, node],
    ...node.items.map((p): [string[], unknown] => [
      [...path, String(YAML.isScalar(p.key) ? p.key.value : p.key)],
      p.value,
    ]),
  ];
  let dropped = false;
  for (const [at, map] of places) {
    if (isMap(map) && map.has(key) && keysAt(composeSchema(), at).includes(key)) dropped = map.delete(key) || dropped;
  }
  return dropped;
}

/** `path.to.key` of a CLI message as a YAML path (a key with a dot in it cannot be told apart; it is then not found). */
const pathOf = (dotted: string) => dotted.split('.');

/** Turns an unquoted true/false at `path` (or the ones right inside the mapping there) into the string v2 reads. */
function quoteBooleans(doc: Document, path: string[]): boolean {
  const node = doc.getIn(path, true);
  const scalars = isMap(node) ? node.items.map((p) => p.value) : [node];
  let changed = false;
  for (const n of scalars) {
    if (YAML.isScalar(n) && typeof n.value === 'boolean') {
      n.value = String(n.value);
      changed = true;
    }
  }
  return changed;
}

/** Whether the compose v2 CLI reads a string v1 calls an invalid interpolation: a lone `$` is kept, `${VAR:+alt}` works. */
function v2Interpolates(value: string): boolean {
  try {
    interpolate(value.replace(/\$(?![${A-Za-z_])/g, '$$$$'), {});
    return true;
  } catch {
    return false;
  }
}

/** In the check's copy only, every string equal to `value` under `path` gets its `$` doubled (read literally by v1). */
function escapeDollars(doc: Document, path: string[], value: string): boolean {
  const node = doc.getIn(path, true);
  if (!YAML.isNode(node)) return false;
  let changed = false;
  YAML.visit(node, {
    Scalar(_, n) {
      if (n.value === value) {
        n.value = value.replaceAll('$', '$$$$');
        changed = true;
      }
    },
  });
  return changed;
}

const V1_TOO_OLD = 'the installed compose CLI (v1) is older than the Compose Specification here';

const RELAXATIONS: Relaxation[] = [
  {
    match: /build path (.+?) either does not exist, is not accessible, or is not a valid URL/,
    warn: (m) => `The build context ${m[1]} does not exist yet; create it before building or starting the project.`,
    drop: (doc) => dropServiceKey(doc, 'build'),
  },
  {
    match: /Couldn't find env file: (.+)/,
    warn: (m) => `The env file ${m[1]!.trim()} does not exist yet; create it before starting the project.`,
    drop: (doc) => dropServiceKey(doc, 'env_file'),
  },
  {
    // One or several keys (`'include', 'name' do not match …`); only keys the specification has (drop refuses others): a typo is still an error.
    match: /^((?:'[^']+'(?:, )?)+) do(?:es)? not match any of the regexes: '\^x-'/m,
    warn: (m) => {
      const keys = keysIn(m[1]!);
      return `The installed compose CLI does not know the top-level key${keys.length > 1 ? 's' : ''} ${keys.map((k) => `"${k}"`).join(', ')} (newer compose versions do); it cannot run the file until ${keys.length > 1 ? 'they are' : 'it is'} removed or the CLI is updated.`;
    },
    drop: (doc, m) =>
      keysIn(m[1]!).every((k) => composeTopLevelKeys().includes(k)) && keysIn(m[1]!).every((k) => doc.delete(k)),
  },
  {
    // `DEBUG: true` in environment, build args …: the specification allows booleans there, v1 wants strings.
    match: /^(\S+) contains (true|false), which is an invalid type, it should be a string/m,
    warn: (m) =>
      `The unquoted ${m[2]} in ${m[1]} is refused by ${V1_TOO_OLD} (newer compose versions read it as "${m[2]}"); quote it or update the CLI before running the file.`,
    drop: (doc, m) => quoteBooleans(doc, pathOf(m[1]!)),
  },
  {
    // A lone `$` kept literally, `${VAR:+alt}`, `${VAR+alt}`: v2 reads them, v1 calls them invalid.
    match:
      /Invalid interpolation format for "([^"]+)" option in (service|network|volume|config|secret) "([^"]+)": "(.*)"$/m,
    warn: (m) =>
      `${JSON.stringify(m[4])} in the ${m[1]} of ${m[2]} ${m[3]} cannot be read by ${V1_TOO_OLD}: newer compose versions keep a lone "$" as written and substitute \${VAR:+…} and \${VAR+…}; write "$$" for a literal dollar or update the CLI before running the file.`,
    drop: (doc, m) => v2Interpolates(m[4]!) && escapeDollars(doc, [`${m[2]}s`, m[3]!, m[1]!], m[4]!),
  },
  {
    // A key inside a service's (or a config's, secret's …) mapping (healthcheck start_interval, build tags, depends_on restart,
    // inline configs content …), in either of the CLI's wordings.
    match:
      /((?:services|configs|secrets|networks|volumes)\.\S+) (?:value '([^']+)' does not match any of the regexes: '\^x-'|contains unsupported option: '([^']+)')/,
    warn: (m) =>
      `The installed compose CLI does not know "${m[2] ?? m[3]}" in ${m[1]} (newer compose versions do); it cannot run the file until it is removed or the CLI is updated.`,
    drop: (doc, m) => dropNestedKey(doc, m[1]!.split('.'), (m[2] ?? m[3])!),
  },
  {
    match: /Unsupported config option for services\.([^:]+): '([^']+)'/,
    warn: (m) =>
      `The installed compose CLI does not know "${m[2]}" of service ${m[1]} (newer compose versions do); it cannot run the file until it is removed or the CLI is updated.`,
    drop: (doc, m) => composeServiceKeys().includes(m[2]!) && doc.deleteIn(['services', m[1]!, m[2]!]),
  },
];

/**
 * The warning for a CLI check failure that should not refuse the save, with the check copy's
 * content to check again; null when the failure is a real error.
 */
export function relaxCheck(content: string, cliOutput: string): { warning: string; retry: string } | null {
  for (const r of RELAXATIONS) {
    const m = r.match.exec(cliOutput);
    if (!m) continue;
    const doc = YAML.parseDocument(content, { merge: true });
    if (!r.drop(doc, m)) return null;
    return { warning: r.warn(m), retry: doc.toString() };
  }
  return null;
}
