import path from 'node:path';
import { z } from 'zod';
import { ConfigError } from './config';

/** `berth agent`'s settings (server/src/agent). */
export interface AgentConfig {
  /** Berth's address: wss:// (or https://); ws:// only to a loopback address. */
  berthUrl: URL;
  /** The one-time enrolment token; read only until the agent enrolled. */
  token: string | undefined;
  /** Where the agent keeps its key and the fingerprint of Berth's key it pinned. */
  stateDir: string;
  /** The engine the agent serves: a unix socket on its own host, nothing else. */
  dockerSocket: string;
  cgroupRoot: string;
  logLevel: string;
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

const AgentEnvSchema = z.object({
  BERTH_URL: z
    .url({ protocol: /^(wss?|https?)$/, error: 'must be the https:// (or wss://) address of Berth' })
    .transform((u) => new URL(u.replace(/^http/, 'ws')))
    .refine((u) => u.protocol === 'wss:' || LOOPBACK.test(u.hostname), {
      message: 'must be https:// or wss:// (plain ws:// only to a loopback address)',
    }),
  BERTH_AGENT_TOKEN: z.string().min(1).optional(),
  BERTH_AGENT_STATE: z.string().min(1).default('./berth-agent'),
  DOCKER_HOST: z
    .string()
    .regex(/^unix:\/\/\/.+/, 'the agent serves a local engine: unix:///path/to/docker.sock')
    .default('unix:///var/run/docker.sock'),
  CGROUP_ROOT: z.string().min(1).default('/sys/fs/cgroup'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

/** The agent's settings from its environment (the only other reader of process.env). */
export function loadAgentConfig(env: NodeJS.ProcessEnv = process.env): AgentConfig {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = AgentEnvSchema.safeParse(present);
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  const e = parsed.data;
  return {
    berthUrl: e.BERTH_URL,
    token: e.BERTH_AGENT_TOKEN,
    stateDir: path.resolve(e.BERTH_AGENT_STATE),
    dockerSocket: e.DOCKER_HOST.slice('unix://'.length),
    cgroupRoot: path.resolve(e.CGROUP_ROOT),
    logLevel: e.LOG_LEVEL,
  };
}
