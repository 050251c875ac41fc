import { z } from 'zod';
import { defineRoute } from '../route';

/**
 * A point in time for log queries: RFC 3339 (`2024-05-01T12:00:00Z`) or a relative age such as
 * `90s`, `15m`, `2h`, `7d` (that long before now).
 */
const LogTime = z.string().max(64).optional();
const Flag = z.enum(['1', '0', 'true', 'false']).optional();

/** Which part of a log to read: the newest `tail` lines (or `all`) between `since` and `until`. */
export const LogRangeQuery = z.object({
  /** Lines from the end to start with: a number (default 500) or `all`. */
  tail: z
    .string()
    .regex(/^(all|\d{1,9})$/, 'tail is a number of lines or "all"')
    .optional(),
  since: LogTime,
  until: LogTime,
  /** 1: each line carries its engine time (`ts`). */
  timestamps: Flag,
  /**
   * `text` (default, the spec's shape): one `update` event per line, data = the line.
   * `json`: `lines` events, data = LogEntry[] (a batch), telling stdout from stderr.
   */
  format: z.enum(['text', 'json']).optional(),
});
export type LogRangeQuery = z.infer<typeof LogRangeQuery>;

export const LogDownloadQuery = LogRangeQuery.pick({ since: true, until: true, timestamps: true });
export type LogDownloadQuery = z.infer<typeof LogDownloadQuery>;

export const LogSearchQuery = z.object({
  q: z.string().min(1, 'q (what to look for) is required').max(1000),
  /** 1: q is a regular expression (JavaScript syntax). */
  regex: Flag,
  /** 1: case-sensitive (default: not). */
  case: Flag,
  since: LogTime,
  until: LogTime,
  /** At most this many matches (default 500, at most 5000). */
  limit: z
    .string()
    .regex(/^\d{1,5}$/, 'limit is a number')
    .optional(),
});
export type LogSearchQuery = z.infer<typeof LogSearchQuery>;

export const LogStreamName = z.enum(['stdout', 'stderr']);

/** One log line with where it came from; `ts` is the engine's RFC 3339 time (when asked for / always in search and project logs). */
export const LogEntry = z.object({
  line: z.string(),
  stream: LogStreamName,
  ts: z.string().optional(),
  /** Project logs: the compose service and the container the line came from. */
  service: z.string().optional(),
  container: z.string().optional(),
});
export type LogEntry = z.infer<typeof LogEntry>;

export const LogSearchResult = z.object({
  matches: z.array(LogEntry),
  /** True when more lines matched than `limit`, or the time budget ran out (see `detail`). */
  truncated: z.boolean(),
  /** Lines looked at. */
  scanned: z.number(),
  detail: z.string().optional(),
});
export type LogSearchResult = z.infer<typeof LogSearchResult>;

/** The log streams' events beyond the spec's `update` (one text line) and `status`. */
export const LogStreamEvent = {
  /** data: LogEntry[] (format=json). */
  lines: 'lines',
  /** The stream is over (an `until` reached); data: { reason, detail }. Do not reconnect. */
  end: 'end',
  /**
   * A followed json log (an app's, or a compose project's merged log) whose reader could not keep up: the server left lines out rather than
   * fall further behind; data: { dropped } (lines left out since the previous `dropped` event;
   * the view adds them up).
   */
  dropped: 'dropped',
} as const;

const NameParams = z.object({ name: z.string() });
const EventStream = z.string().describe('text/event-stream');
const TextFile = z.unknown().describe('text/plain attachment');

export const logsApi = {
  appDownload: defineRoute({
    method: 'GET',
    path: '/api/apps/{name}/logs/download',
    scope: 'environment',
    tag: 'logs',
    summary:
      'The app log (stdout and stderr) as a text attachment, streamed; since/until/timestamps as for the log stream',
    role: 'viewer',
    params: NameParams,
    querystring: LogDownloadQuery,
    response: TextFile,
  }),
  appSearch: defineRoute({
    method: 'GET',
    path: '/api/apps/{name}/logs/search',
    scope: 'environment',
    tag: 'logs',
    summary:
      'Lines of the app log matching q (plain or regex=1; case=1 for case-sensitive) between since and until, with their times',
    role: 'viewer',
    params: NameParams,
    querystring: LogSearchQuery,
    response: LogSearchResult,
  }),
  project: defineRoute({
    method: 'GET',
    path: '/api/compose/{name}/logs',
    scope: 'environment',
    tag: 'logs',
    summary:
      "SSE: 'lines' = LogEntry[] of every container of the project (with service and container), in time order; follows containers started later; 'dropped' = { dropped } when the reader cannot keep up",
    role: 'viewer',
    params: NameParams,
    querystring: LogRangeQuery.omit({ format: true }),
    response: EventStream,
  }),
  projectDownload: defineRoute({
    method: 'GET',
    path: '/api/compose/{name}/logs/download',
    scope: 'environment',
    tag: 'logs',
    summary:
      'Every container log of the project merged in time order, each line prefixed with its service, as a text attachment',
    role: 'viewer',
    params: NameParams,
    querystring: LogDownloadQuery,
    response: TextFile,
  }),
};
