import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { ConfigError } from '../config';
import { loadAgentConfig } from '../agent-config';
import { BerthAgent } from './agent';

/** `berth agent` (`npm run agent`; in the image: node /app/server/dist/agent-main.mjs). */
async function main(): Promise<void> {
  let config;
  try {
    config = loadAgentConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const log = pino({ level: config.logLevel, base: { agent: true } }) as unknown as FastifyBaseLogger;
  const agent = new BerthAgent(config, log);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => agent.stop());
  log.info({ berth: config.berthUrl.origin, engine: config.dockerSocket }, 'berth agent starting');
  process.exitCode = await agent.run();
  // Timers of a closing socket would keep the process a moment longer.
  setTimeout(() => process.exit(), 500).unref();
}

void main();
