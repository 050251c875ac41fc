import { useEffect, useRef } from 'react';
import { Box, useComputedColorScheme } from '@mantine/core';
import type { ShellName } from '@berth/contract';
import { useEnvironment } from '../../../lib/environment';
import { openTerminal, type TerminalTarget } from '../api/terminal';
import { endMessage, terminalTheme, type SessionState } from '../model';

type XtermTerminal = InstanceType<(typeof import('./xterm'))['Terminal']>;

interface Props {
  target: TerminalTarget;
  shell: ShellName;
  onState: (state: SessionState) => void;
  /** The live terminal (for copy and paste), null once it is gone. */
  onTerminal: (term: XtermTerminal | null) => void;
}

const encoder = new TextEncoder();

/**
 * One session: loads xterm.js, opens the socket, carries keystrokes and output as binary frames,
 * sends a resize control message whenever the box changes size, and reports how it ended.
 * Remount it (a new key) to reconnect.
 */
export function XtermSession({ target, shell, onState, onTerminal }: Props) {
  const env = useEnvironment();
  const box = useRef<HTMLDivElement>(null);
  const term = useRef<XtermTerminal | null>(null);
  const scheme = useComputedColorScheme('light');
  const themeRef = useRef(scheme);
  themeRef.current = scheme;

  useEffect(() => {
    let disposed = false;
    let socket: WebSocket | null = null;
    let cleanup = () => {};
    onState({ kind: 'connecting' });
    void (async () => {
      const { Terminal, FitAddon } = await import('./xterm');
      if (disposed || !box.current) return;
      const t = new Terminal({
        cursorBlink: true,
        fontFamily: 'ui-monospace, Menlo, Consolas, monospace',
        fontSize: 13,
        theme: terminalTheme(themeRef.current),
      });
      const fit = new FitAddon();
      t.loadAddon(fit);
      t.open(box.current);
      fit.fit();
      term.current = t;
      onTerminal(t);
      try {
        socket = await openTerminal(env, target, shell, t.cols, t.rows);
      } catch (err) {
        onState({ kind: 'ended', message: `The terminal could not connect: ${String(err)}` });
        return;
      }
      const ws = socket;
      if (disposed) return ws.close();
      ws.onopen = () => {
        onState({ kind: 'open' });
        t.focus();
      };
      ws.onmessage = (e: MessageEvent<ArrayBuffer | string>) =>
        t.write(typeof e.data === 'string' ? e.data : new Uint8Array(e.data));
      ws.onclose = (e) => {
        if (!disposed) onState({ kind: 'ended', message: endMessage(e.code, e.reason) });
      };
      const send = (bytes: Uint8Array) => ws.readyState === WebSocket.OPEN && ws.send(bytes);
      const input = t.onData((d) => send(encoder.encode(d)));
      const binary = t.onBinary((d) => send(Uint8Array.from(d, (c) => c.charCodeAt(0) & 0xff)));
      const resized = t.onResize(
        ({ cols, rows }) => ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify({ type: 'resize', cols, rows })),
      );
      const observer = new ResizeObserver(() => fit.fit());
      observer.observe(box.current);
      cleanup = () => {
        observer.disconnect();
        input.dispose();
        binary.dispose();
        resized.dispose();
      };
    })();
    return () => {
      disposed = true;
      cleanup();
      socket?.close();
      term.current?.dispose();
      term.current = null;
      onTerminal(null);
    };
    // One session per mount: the parent remounts it with a new key to reconnect or change shell.
  }, []);

  useEffect(() => {
    if (term.current) term.current.options.theme = terminalTheme(scheme);
  }, [scheme]);

  return (
    <Box
      ref={box}
      data-testid="terminal"
      style={{
        height: 'min(70vh, 640px)',
        minHeight: 240,
        padding: 4,
        background: terminalTheme(scheme).background,
        borderRadius: 4,
      }}
    />
  );
}
