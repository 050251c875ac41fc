import Anser from 'anser';
import type { LogEntry } from '@berth/contract';

/** Pure helpers of the log view: levels, JSON, colours, search and the capped buffer. */

export type Level = 'error' | 'warn' | 'info' | 'debug';
export const LEVELS: readonly Level[] = ['debug', 'info', 'warn', 'error'];

export interface LogItem extends LogEntry {
  level: Level | null;
  /** The parsed JSON object when the line is one. */
  json: Record<string, unknown> | null;
}

export interface LogBuffer {
  items: LogItem[];
  /** How many lines were dropped from the front so far (lets the view keep its place). */
  dropped: number;
}

/** The view keeps the newest lines only (default 10,000), so a chatty container cannot grow the page without bound. */
export const DEFAULT_KEEP = 10_000;

const LEVEL_WORDS: Record<string, Level> = {
  error: 'error',
  err: 'error',
  fatal: 'error',
  crit: 'error',
  critical: 'error',
  panic: 'error',
  emerg: 'error',
  alert: 'error',
  warn: 'warn',
  warning: 'warn',
  info: 'info',
  notice: 'info',
  debug: 'debug',
  trace: 'debug',
};
// A level word near the start: "ERROR ...", "[warn] ...", "level=info", "2024-05-01 12:00:00 DEBUG ...".
const PREFIX =
  /^(?:\S+\s+){0,3}?\[?(?:level=)?(error|err|fatal|crit|critical|panic|warn|warning|info|notice|debug|trace)\]?[\s:|]/i;
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

function parseJson(line: string): Record<string, unknown> | null {
  if (!line.startsWith('{') || !line.endsWith('}')) return null;
  try {
    const v: unknown = JSON.parse(line);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The level of a line: a JSON field (level, lvl, severity) or a common prefix. */
export function levelOf(line: string, json: Record<string, unknown> | null): Level | null {
  const field = json ? (json.level ?? json.lvl ?? json.severity ?? json['log.level']) : undefined;
  if (typeof field === 'string') return LEVEL_WORDS[field.toLowerCase()] ?? null;
  const m = PREFIX.exec(line.includes('\u001b') ? line.replace(ANSI, '') : line);
  return m ? (LEVEL_WORDS[m[1]!.toLowerCase()] ?? null) : null;
}

export function toItem(e: LogEntry): LogItem {
  const json = parseJson(e.line);
  return { ...e, json, level: levelOf(e.line, json) };
}

export function foldItems(prev: LogBuffer | undefined, entries: readonly LogEntry[], keep: number): LogBuffer {
  const before = prev?.items ?? [];
  const added = entries.map(toItem);
  const all = before.length + added.length;
  const items =
    all > keep
      ? [...before.slice(Math.max(0, all - keep)), ...added.slice(Math.max(0, added.length - keep))]
      : [...before, ...added];
  return { items, dropped: (prev?.dropped ?? 0) + (all - items.length) };
}

/** A line's text as coloured parts (ANSI SGR colours), never HTML: the text stays text. */
export interface Part {
  text: string;
  color?: string;
  background?: string;
  bold?: boolean;
}
export function ansiParts(line: string): Part[] {
  if (!line.includes('\u001b')) return [{ text: line }];
  return Anser.ansiToJson(line, { json: true, remove_empty: true, use_classes: false }).map((p) => ({
    text: p.content,
    ...(p.fg ? { color: `rgb(${p.fg})` } : {}),
    ...(p.bg ? { background: `rgb(${p.bg})` } : {}),
    ...(p.decorations.includes('bold') ? { bold: true } : {}),
  }));
}

/** Plain text of a line (colour escapes removed), for search. */
export const plainText = (line: string) => (line.includes('\u001b') ? line.replace(ANSI, '') : line);

export interface SearchSpec {
  q: string;
  regex: boolean;
  caseSensitive: boolean;
}

/** The search as a global RegExp, or an error message for a regex that does not compile; null when empty. */
export function searchRegExp(s: SearchSpec): RegExp | string | null {
  if (!s.q) return null;
  const source = s.regex ? s.q : s.q.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  try {
    return new RegExp(source, s.caseSensitive ? 'g' : 'gi');
  } catch (err) {
    return (err as Error).message;
  }
}

/** Cuts `text` into pieces that match `re` and pieces that do not. */
export function splitMatches(text: string, re: RegExp | null): { text: string; hit: boolean }[] {
  if (!re) return [{ text, hit: false }];
  const out: { text: string; hit: boolean }[] = [];
  let at = 0;
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[0].length === 0) {
      re.lastIndex++;
      continue;
    }
    if (m.index > at) out.push({ text: text.slice(at, m.index), hit: false });
    out.push({ text: m[0], hit: true });
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push({ text: text.slice(at), hit: false });
  return out;
}

export const matches = (item: LogItem, re: RegExp) => {
  re.lastIndex = 0;
  return re.test(plainText(item.line));
};

/** Lines of a pretty-printed JSON line (2-space indent). */
export const prettyJson = (json: Record<string, unknown>) => JSON.stringify(json, null, 2).split('\n');

/** A stable colour per service name (Mantine palette names). */
const SERVICE_COLOURS = [
  'blue',
  'teal',
  'grape',
  'orange',
  'cyan',
  'lime',
  'pink',
  'indigo',
  'yellow',
  'violet',
] as const;
export function serviceColour(service: string): string {
  let h = 0;
  for (const c of service) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return SERVICE_COLOURS[h % SERVICE_COLOURS.length]!;
}

export const LEVEL_COLOUR: Record<Level, string | undefined> = {
  error: 'var(--mantine-color-red-text)',
  warn: 'var(--mantine-color-yellow-text)',
  info: undefined,
  debug: 'var(--mantine-color-dimmed)',
};
