import { exitCodeOf, TERMINAL_CLOSE } from '@berth/contract';

/** Where a terminal session is: its words are shown beside the terminal. */
export type SessionState = { kind: 'connecting' } | { kind: 'open' } | { kind: 'ended'; message: string };

/** What a closed terminal socket means, in words. */
export function endMessage(code: number, reason: string): string {
  if (code === TERMINAL_CLOSE.exited) {
    const exit = exitCodeOf(reason);
    return exit === null ? 'The session ended.' : `The session ended (exit code ${exit}).`;
  }
  if (code === TERMINAL_CLOSE.idle || code === TERMINAL_CLOSE.engine || code === TERMINAL_CLOSE.revoked)
    return `The session ended: ${reason}`;
  // 1006: the upgrade was refused (the app stopped, the session expired) or the connection dropped.
  return 'The connection was closed or refused. Check that the app still runs, then reconnect.';
}

/** xterm colours that follow Berth's light or dark scheme. */
export function terminalTheme(scheme: 'light' | 'dark') {
  return scheme === 'dark'
    ? { background: '#1a1b1e', foreground: '#e9ecef', cursor: '#e9ecef', selectionBackground: '#495057' }
    : { background: '#ffffff', foreground: '#212529', cursor: '#212529', selectionBackground: '#a5d8ff' };
}
