import type { FastifyBaseLogger } from 'fastify';
import type { Uses } from '../../context';
import { TerminalService } from './terminal';
import { TerminalSessions } from './terminal-sessions';

/**
 * Web terminals: the open sessions of every environment (one per-user cap and idle timeout for
 * all) and, per environment, the service that finds a container's shell.
 */
export function createTerminals(log: FastifyBaseLogger, limits: { maxPerUser: number; idleMs: number }) {
  return {
    sessions: new TerminalSessions(log, limits),
    forEnvironment: (ctx: Uses<'docker' | 'log'>) => new TerminalService(ctx),
  };
}
