/**
 * Query keys of the apps feature. Server reads live under `apps/…`; live streams (filled by
 * server-sent events, never fetched) under `apps-live/…`, so invalidating server reads can never
 * try to refetch a stream entry.
 */
export const appKeys = {
  all: ['apps'] as const,
  list: () => [...appKeys.all, 'list'] as const,
  detail: (name: string) => [...appKeys.all, 'detail', name] as const,
  /** Keyed by the last stop too: a new stop reads the diagnosis again. */
  diagnosis: (name: string, finishedAt: string) => [...appKeys.all, 'diagnosis', name, finishedAt] as const,
  processes: (name: string) => [...appKeys.all, 'processes', name] as const,
  history: (name: string, range: string) => [...appKeys.all, 'history', name, range] as const,
};

export const liveKeys = {
  all: ['apps-live'] as const,
  dashboard: () => [...liveKeys.all, 'dashboard'] as const,
  logs: (name: string) => [...liveKeys.all, 'logs', name] as const,
  stats: (name: string) => [...liveKeys.all, 'stats', name] as const,
};
