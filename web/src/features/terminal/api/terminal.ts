import { queryOptions, useQuery } from '@tanstack/react-query';
import { TERMINAL_PROTOCOL, terminalApi, type ShellName } from '@berth/contract';
import { api, openSocket } from '../../../lib/api-client';
import { useEnvironment } from '../../../lib/environment';
import { queryKeys } from '../../../lib/query-keys';

/** Where a terminal opens: an app, or the running container of a compose service. */
export type TerminalTarget = { app: string } | { project: string; service: string };

export const targetLabel = (t: TerminalTarget) => ('app' in t ? t.app : `${t.project}/${t.service}`);

export const shellsQuery = (env: string, target: TerminalTarget) =>
  queryOptions({
    queryKey: queryKeys.terminal.shells(env, target),
    queryFn: ({ signal }) =>
      'app' in target
        ? api(terminalApi.appShells, { env, params: { name: target.app }, signal })
        : api(terminalApi.serviceShells, { env, params: target, signal }),
    // Shells do not come and go while a container runs; a failure (not running) is shown, not retried.
    staleTime: 60_000,
    retry: false,
  });

/** The shells of the target (404/409 with the server's detail when it is unknown or not running). */
export const useShells = (target: TerminalTarget) => useQuery(shellsQuery(useEnvironment(), target));

/** Opens the terminal socket of `target` running `shell`, sized cols × rows. */
export function openTerminal(
  env: string,
  target: TerminalTarget,
  shell: ShellName,
  cols: number,
  rows: number,
): Promise<WebSocket> {
  const query = { shell, cols, rows };
  return 'app' in target
    ? openSocket(terminalApi.appExec, { env, params: { name: target.app }, query, protocol: TERMINAL_PROTOCOL })
    : openSocket(terminalApi.serviceExec, { env, params: target, query, protocol: TERMINAL_PROTOCOL });
}
