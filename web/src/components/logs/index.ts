// The log viewer (live and ranged, search, levels, download) that apps, projects and swarm services share.
export { LogPanel, type LogQuery } from './LogPanel';
export type { LogSettings } from './LogToolbar';
