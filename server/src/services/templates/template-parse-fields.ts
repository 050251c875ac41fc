import {
  hostIpField,
  parseCommandLine,
  type TemplateEnv,
  type TemplatePort,
  type TemplateVolume,
} from '@berth/contract';

/** Why one catalogue entry cannot be used; the entry is skipped and the reason reported. */
export class ItemError extends Error {}

type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Text from a string, number or boolean (catalogues write `"1000"` and `1000` alike); otherwise undefined. */
export function scalar(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

/** Null, absent or an empty string count as no list; anything else must be a list. */
function listOf(v: unknown, field: string): unknown[] {
  if (v === null || v === undefined || v === '') return [];
  if (!Array.isArray(v)) throw new ItemError(`${field} must be a list`);
  return v;
}

const MAX_RANGE = 100;

function portRange(text: string, what: string, spec: string): number[] {
  const [a, b = a] = text.split('-').map(Number) as [number, number?];
  if (a > 65535 || b > 65535) throw new ItemError(`port '${spec}': ${what} port out of range 0-65535`);
  if (b < a || b - a >= MAX_RANGE) throw new ItemError(`port '${spec}': bad ${what} port range`);
  return Array.from({ length: b - a + 1 }, (_, i) => a + i);
}

/**
 * Docker's short port syntax: `8080:80/tcp`, `80/tcp`, `:80/udp`, `80`, `8000-8002:8000-8002`, with an
 * optional host address in front (`127.0.0.1:8080:80`, `[::1]::80`). The protocol defaults to tcp.
 */
export function parsePortString(
  spec: string,
  label: string | null = null,
  hostIp: string | null = null,
): TemplatePort[] {
  let text = spec.trim();
  const ip = /^(\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-fA-F:.]+\]):(?=.*:)/.exec(text);
  if (ip) text = text.slice(ip[0].length);
  const address = ip ? ip[1]!.replace(/^\[|\]$/g, '') : hostIp?.trim() || null;
  if (address && !hostIpField.safeParse(address).success)
    throw new ItemError(`port '${spec}': host IP ${address} is not an IPv4 or IPv6 address`);
  const m = /^(?:(\d+(?:-\d+)?)?:)?(\d+(?:-\d+)?)(?:\/([a-zA-Z]+))?$/.exec(text);
  if (!m) throw new ItemError(`port '${spec}' is not host:container/protocol`);
  const proto = (m[3] ?? 'tcp').toLowerCase();
  if (proto !== 'tcp' && proto !== 'udp') throw new ItemError(`port '${spec}': protocol must be tcp or udp`);
  const container = portRange(m[2]!, 'container', spec);
  const host = m[1] ? portRange(m[1], 'host', spec) : null;
  if (host && host.length !== container.length)
    throw new ItemError(`port '${spec}': host and container ranges differ in length`);
  return container.map((c, i) => ({
    label,
    host_ip: address,
    hport: host ? String(host[i]) : null,
    cport: String(c),
    proto,
  }));
}

function portObject(o: Obj, index: number): TemplatePort[] {
  // Already in our shape (a catalogue exported from Berth or Yacht's database).
  if ('cport' in o) {
    const cport = scalar(o.cport)?.trim() ?? '';
    const hport = scalar(o.hport)?.trim() || null;
    const proto = scalar(o.proto)?.toLowerCase() || 'tcp';
    const spec = `${hport ? `${hport}:` : ''}${cport}/${proto}`;
    return parsePortString(spec, scalar(o.label) ?? null, scalar(o.host_ip) ?? null);
  }
  // Yacht's labelled form: { "WebUI": "8080:80/tcp", "VNC": "5900:5900/tcp" }.
  return Object.entries(o).flatMap(([label, spec]) => {
    if (typeof spec !== 'string' && typeof spec !== 'number')
      throw new ItemError(`ports[${index}].${label} must be a port string`);
    return parsePortString(String(spec), label);
  });
}

export function parsePorts(v: unknown): TemplatePort[] {
  return listOf(v, 'ports').flatMap((p, i) => {
    if (typeof p === 'string' || typeof p === 'number') return parsePortString(String(p));
    if (isObj(p)) return portObject(p, i);
    throw new ItemError(`ports[${i}] must be a port string or object`);
  });
}

export function parseVolumes(v: unknown): TemplateVolume[] {
  return listOf(v, 'volumes').map((entry, i) => {
    let bind: string;
    let container: string;
    let readonly = false;
    if (typeof entry === 'string') {
      const parts = entry.split(':');
      readonly = parts.length === 3 && parts[2] === 'ro';
      [bind = '', container = ''] = parts.length === 1 ? ['', parts[0]] : parts;
    } else if (isObj(entry)) {
      bind = scalar(entry.bind) ?? '';
      container = scalar(entry.container) ?? '';
      readonly = entry.readonly === true;
    } else throw new ItemError(`volumes[${i}] must be an object with container and bind`);
    if (!container.startsWith('/')) throw new ItemError(`volumes[${i}]: container path must be absolute`);
    return { bind, container, ...(readonly ? { readonly } : {}) };
  });
}

/** Portainer's `select` lists choices as `{text, value, default}`; the one marked default (or the first) is the value. */
function selectOptions(select: unknown): { label: string; value: string; isDefault: boolean }[] {
  if (!Array.isArray(select)) return [];
  return select.filter(isObj).flatMap((o) => {
    const value = scalar(o.value);
    if (value === undefined) return [];
    return [{ label: scalar(o.text) ?? scalar(o.label) ?? value, value, isDefault: o.default === true }];
  });
}

export function parseEnv(v: unknown): TemplateEnv[] {
  return listOf(v, 'env').map((entry, i) => {
    if (typeof entry === 'string') {
      const eq = entry.indexOf('=');
      const name = (eq === -1 ? entry : entry.slice(0, eq)).trim();
      if (!name) throw new ItemError(`env[${i}] has no name`);
      return { name, label: null, default: eq === -1 ? '' : entry.slice(eq + 1), description: null, options: [] };
    }
    if (!isObj(entry)) throw new ItemError(`env[${i}] must be an object with a name`);
    const name = scalar(entry.name)?.trim();
    // The engine and the deploy contract accept any name without = or a line break ("VENDOR ID" is in real catalogues).
    if (!name || /[=\0\r\n]/.test(name)) throw new ItemError(`env[${i}] needs a name without = or line breaks`);
    const options = selectOptions(entry.select);
    return {
      name,
      label: scalar(entry.label) ?? null,
      // Old Yacht catalogues write `set`; Portainer writes `default` or a `select` list.
      default:
        scalar(entry.default) ?? scalar(entry.set) ?? (options.find((o) => o.isDefault) ?? options[0])?.value ?? '',
      description: scalar(entry.description) ?? null,
      options: options.map(({ label, value }) => ({ label, value })),
    };
  });
}

export function parseDevices(v: unknown): { container: string; host: string }[] {
  return listOf(v, 'devices').map((entry, i) => {
    if (typeof entry === 'string') {
      const [host = '', container = host] = entry.split(':');
      return { host, container };
    }
    const host = isObj(entry) ? scalar(entry.host) : undefined;
    const container = isObj(entry) ? (scalar(entry.container) ?? host) : undefined;
    if (!host || !container) throw new ItemError(`devices[${i}] needs host and container`);
    return { host, container };
  });
}

/** A list of `{key, value}` rows, a list of one-key objects, or one object map: all become rows. */
function pairs(v: unknown, field: string, keyNames: string[]): [string, string][] {
  if (isObj(v)) return Object.entries(v).map(([k, val]) => [k, scalar(val) ?? '']);
  return listOf(v, field).map((entry, i) => {
    if (!isObj(entry)) throw new ItemError(`${field}[${i}] must be an object`);
    const keyName = keyNames.find((k) => k in entry);
    if (keyName) return [scalar(entry[keyName]) ?? '', scalar(entry.value) ?? ''];
    const keys = Object.keys(entry);
    if (keys.length !== 1) throw new ItemError(`${field}[${i}] needs ${keyNames[0]} and value`);
    return [keys[0]!, scalar(entry[keys[0]!]) ?? ''];
  });
}

export function parseLabels(v: unknown): { label: string; value: string }[] {
  return pairs(v, 'labels', ['label', 'name']).map(([label, value], i) => {
    if (!label) throw new ItemError(`labels[${i}] has no label`);
    return { label, value };
  });
}

export function parseSysctls(v: unknown): { name: string; value: string }[] {
  return pairs(v, 'sysctls', ['name']).map(([name, value], i) => {
    if (!name || !value) throw new ItemError(`sysctls[${i}] needs name and value`);
    return { name, value };
  });
}

export function parseCapAdd(v: unknown): string[] {
  return listOf(v, 'cap_add').map((c, i) => {
    if (typeof c !== 'string' || !c.trim()) throw new ItemError(`cap_add[${i}] must be a capability name`);
    return c.trim().toUpperCase().replace(/^CAP_/, '');
  });
}

/** Splits a command line the way a POSIX shell would for words: whitespace separates, quotes group, backslash escapes. */
export function splitCommand(line: string): string[] {
  const words = parseCommandLine(line);
  if (!Array.isArray(words)) throw new ItemError('command has an unclosed quote');
  return words;
}

export function parseCommand(v: unknown): string[] | null {
  if (v === null || v === undefined || v === '') return null;
  if (typeof v === 'string') return splitCommand(v);
  if (Array.isArray(v) && v.every((w) => scalar(w) !== undefined)) return v.map((w) => scalar(w)!);
  throw new ItemError('command must be text or a list of text');
}
