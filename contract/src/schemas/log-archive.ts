import { z } from 'zod';
import { defineRoute } from '../route';
import { LogDownloadQuery, LogRangeQuery, LogSearchQuery, LogSearchResult } from './logs';

/** Why Berth kept a container's last lines: it stopped (the engine's `die`), was removed, or was replaced by a newer one. */
export const LogArchiveReason = z.enum(['died', 'removed', 'replaced']);
export type LogArchiveReason = z.infer<typeof LogArchiveReason>;

/**
 * The last lines of an earlier container of an app, kept after it stopped, was removed or was
 * replaced (the last LOG_ARCHIVE_LINES lines, at most LOG_ARCHIVE_KB, for LOG_ARCHIVE_DAYS).
 */
export const LogArchive = z.object({
  id: z.number(),
  /** The app's name (a replaced container's temporary name is not kept). */
  name: z.string(),
  containerId: z.string(),
  /** Compose containers: their project and service. */
  project: z.string().nullable(),
  service: z.string().nullable(),
  image: z.string(),
  /** When the container last started and stopped (null while it ran when its lines were kept). */
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  exitCode: z.number().nullable(),
  /** The time span of the kept lines (the engine's times of the first and the last). */
  firstLineAt: z.string().nullable(),
  lastLineAt: z.string().nullable(),
  lines: z.number(),
  /** Bytes of the kept lines, and what they take on disk compressed. */
  bytes: z.number(),
  storedBytes: z.number(),
  reason: LogArchiveReason,
  capturedAt: z.string(),
  /** When the engine removed the container (null: it still exists, or Berth did not see it go). */
  removedAt: z.string().nullable(),
  /** The container still exists on the engine (its live log is there too). */
  exists: z.boolean(),
});
export type LogArchive = z.infer<typeof LogArchive>;

export const LogArchiveList = z.object({
  /** Newest first. */
  archives: z.array(LogArchive),
  /** How long kept lines stay, in days. */
  retentionDays: z.number(),
});
export type LogArchiveList = z.infer<typeof LogArchiveList>;

const NameParams = z.object({ name: z.string() });
const ArchiveParams = z.object({
  name: z.string(),
  id: z.string().regex(/^\d{1,12}$/, 'id is the number of a kept log'),
});

export const logArchiveApi = {
  list: defineRoute({
    method: 'GET',
    path: '/api/apps/{name}/logs/archives',
    scope: 'environment',
    tag: 'logs',
    summary:
      'Earlier containers of the app whose last log lines Berth kept (by container name, or compose project + service), with their time span; works after the app was removed',
    role: 'viewer',
    params: NameParams,
    response: LogArchiveList,
  }),
  read: defineRoute({
    method: 'GET',
    path: '/api/apps/{name}/logs/archives/{id}',
    scope: 'environment',
    tag: 'logs',
    summary:
      "SSE of a kept log, as the live log stream sends it (tail, since, until, timestamps, format=json); ends with an 'end' event",
    role: 'viewer',
    params: ArchiveParams,
    querystring: LogRangeQuery,
    response: z.string().describe('text/event-stream'),
  }),
  search: defineRoute({
    method: 'GET',
    path: '/api/apps/{name}/logs/archives/{id}/search',
    scope: 'environment',
    tag: 'logs',
    summary: 'Lines of a kept log matching q (as the live log search: regex, case, since, until, limit)',
    role: 'viewer',
    params: ArchiveParams,
    querystring: LogSearchQuery,
    response: LogSearchResult,
  }),
  download: defineRoute({
    method: 'GET',
    path: '/api/apps/{name}/logs/archives/{id}/download',
    scope: 'environment',
    tag: 'logs',
    summary: 'A kept log as a text attachment; since/until/timestamps as for the live log download',
    role: 'viewer',
    params: ArchiveParams,
    querystring: LogDownloadQuery,
    response: z.unknown().describe('text/plain attachment'),
  }),
};
