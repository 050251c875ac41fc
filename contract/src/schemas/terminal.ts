import { z } from 'zod';
import { defineRoute } from '../route';
import { AppNameParams } from './app';
import { PROJECT_NAME_PATTERN, PROJECT_NAME_RULE } from './project';

/** The shells Berth looks for in a container, in the order it prefers them. */
export const SHELLS = ['bash', 'ash', 'sh', 'zsh'] as const;
export const ShellName = z.enum(SHELLS, { error: () => `Unknown shell; use one of: ${SHELLS.join(', ')}.` });
export type ShellName = z.infer<typeof ShellName>;

/** The shells present in a container, first usable first (empty when it has none). */
export const ShellList = z.object({ shells: z.array(ShellName) });
export type ShellList = z.infer<typeof ShellList>;

/** The subprotocol a terminal socket speaks; the server selects it. */
export const TERMINAL_PROTOCOL = 'berth.terminal';

/** Close codes of a terminal socket (Berth stopping closes it with 1005, like the user leaving). */
export const TERMINAL_CLOSE = {
  /** The process ended; the reason carries its exit code. */
  exited: 1000,
  /** Nothing was typed for the idle timeout. */
  idle: 4000,
  /** The engine failed (the reason says how). */
  engine: 4001,
  /** The user lost the right to the terminal (demoted, disabled, deleted, signed out, key revoked); the reason says which. */
  revoked: 4003,
} as const;

/** The reason of a TERMINAL_CLOSE.exited close: `exit 3`. */
export const exitReason = (code: number | null) => `exit ${code ?? 'unknown'}`;
export const exitCodeOf = (reason: string): number | null => {
  const m = /^exit (\d+)$/.exec(reason);
  return m ? Number(m[1]) : null;
};

const Dimension = (max: number) => z.coerce.number().int().min(1).max(max);

/**
 * What a terminal runs: a probed `shell` (default sh) or a command given as repeated `cmd`, as
 * `user` (default: the container's), sized `cols` × `rows`.
 */
export const TerminalQuery = z
  .strictObject({
    shell: ShellName.optional(),
    cmd: z
      .union([z.string().min(1), z.array(z.string().min(1)).min(1).max(64)])
      .transform((v) => (Array.isArray(v) ? v : [v]))
      .optional(),
    user: z
      .string()
      .regex(
        /^[a-zA-Z0-9_][a-zA-Z0-9_.-]{0,31}(:[a-zA-Z0-9_][a-zA-Z0-9_.-]{0,31})?$/,
        'A user is a name or uid, optionally :group.',
      )
      .optional(),
    cols: Dimension(1000).default(80),
    rows: Dimension(500).default(24),
  })
  .refine((q) => !(q.shell && q.cmd), { message: 'Give a shell or a command (cmd), not both.', path: ['cmd'] });
export type TerminalQuery = z.input<typeof TerminalQuery>;

/** Text frames from the client: control messages. Binary frames carry the terminal's bytes. */
export const TerminalControl = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('resize'),
    cols: z.number().int().min(1).max(1000),
    rows: z.number().int().min(1).max(500),
  }),
]);
export type TerminalControl = z.infer<typeof TerminalControl>;

const ServiceParams = z.object({
  project: z.string().regex(PROJECT_NAME_PATTERN, PROJECT_NAME_RULE),
  service: z
    .string()
    .regex(/^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/, 'A service name is letters, digits and _ . -')
    .max(255),
});

/** A WebSocket (see TerminalQuery, TerminalControl and TERMINAL_CLOSE). */
const TerminalSocket = z
  .unknown()
  .describe('WebSocket: binary frames carry terminal bytes; text frames carry TerminalControl');

export const terminalApi = {
  appShells: defineRoute({
    method: 'GET',
    path: '/api/apps/{name}/shells',
    scope: 'environment',
    tag: 'terminal',
    summary: 'The shells present in a running app (bash, ash, sh, zsh), first usable first',
    role: 'operator',
    params: AppNameParams,
    response: ShellList,
  }),
  appExec: defineRoute({
    method: 'GET',
    path: '/api/apps/{name}/exec',
    scope: 'environment',
    tag: 'terminal',
    summary: 'WebSocket: a terminal (engine exec with a TTY) in a running app',
    role: 'operator',
    params: AppNameParams,
    querystring: TerminalQuery,
    response: TerminalSocket,
  }),
  serviceShells: defineRoute({
    method: 'GET',
    path: '/api/compose/{project}/services/{service}/shells',
    scope: 'environment',
    tag: 'terminal',
    summary: "The shells present in a compose service's running container",
    role: 'operator',
    params: ServiceParams,
    response: ShellList,
  }),
  serviceExec: defineRoute({
    method: 'GET',
    path: '/api/compose/{project}/services/{service}/exec',
    scope: 'environment',
    tag: 'terminal',
    summary: "WebSocket: a terminal in a compose service's running container",
    role: 'operator',
    params: ServiceParams,
    querystring: TerminalQuery,
    response: TerminalSocket,
  }),
};
