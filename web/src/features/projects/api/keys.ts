/**
 * Query keys of the projects feature. Server reads under `projects/…`; the live output of
 * actions (filled by server-sent events, never fetched) under `projects-live/…`.
 */
export const projectKeys = {
  all: ['projects'] as const,
  list: () => [...projectKeys.all, 'list'] as const,
  detail: (name: string) => [...projectKeys.all, 'detail', name] as const,
};

export const projectLiveKeys = {
  output: (name: string) => ['projects-live', 'output', name] as const,
};
