import { queryOptions, useQuery } from '@tanstack/react-query';
import { TERMINAL_PROTOCOL, terminalApi, type ShellName } from '@berth/contract';
import { api, openSocket } from '../../../lib/api-client';

/** Where a terminal opens: an app, or the running container of a compose service. */
export type TerminalTarget = { app: string } | { project: string; service: string };

export const targetLabel = (t: TerminalTarget) => ('app' in t ? t.app : `${t.project}/${t.service}`);

export const shellsQuery = (target: TerminalTarget) =>
  queryOptions({
    queryKey: ['terminal', 'shells', target],
    queryFn: ({ signal }) =>
      'app' in target
        ? api(terminalApi.appShells, { params: { name: target.app }, signal })
        : api(terminalApi.serviceShells, { params: target, signal }),
    // Shells do not come and go while a container runs; a failure (not running) is shown, not retried.
    staleTime: 60_000,
    retry: false,
  });

/** The shells of the target (404/409 with the server's detail when it is unknown or not running). */
export const useShells = (target: TerminalTarget) => useQuery(shellsQuery(target));

/** Opens the terminal socket of `target` running `shell`, sized cols × rows. */
export function openTerminal(target: TerminalTarget, shell: ShellName, cols: number, rows: number): Promise<WebSocket> {
  const query = { shell, cols, rows };
  return 'app' in target
    ? openSocket(terminalApi.appExec, { params: { name: target.app }, query, protocol: TERMINAL_PROTOCOL })
    : openSocket(terminalApi.serviceExec, { params: target, query, protocol: TERMINAL_PROTOCOL });
}
