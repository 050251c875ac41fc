import YAML, { isMap, type Document } from 'yaml';
import { composeSchema, composeServiceKeys, composeTopLevelKeys, keysAt } from '@berth/contract/compose-schema';

/**
 * CLI check failures that only say something is not there yet (a build context, an env file) or
 * that the installed CLI is older than the file (a key it does not know). A save is not refused for
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
    // A key inside a service's mapping (healthcheck start_interval, build tags, depends_on restart …), in either of the CLI's wordings.
    match:
      /(services\.\S+) (?:value '([^']+)' does not match any of the regexes: '\^x-'|contains unsupported option: '([^']+)')/,
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
