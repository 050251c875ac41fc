import type { FastifyBaseLogger } from 'fastify';

type Task = () => Promise<void> | void;

/**
 * What runs once the server listens and answers (ctx.afterStart): schedulers (auto-update,
 * backups, threshold rules, git polling), the kept logs' first prune, the compose check-copy sweep
 * and the stats history recorder. Held until `start()` (Fastify's onListen, or a test app once it
 * is ready), then run one by one on later turns of the event loop, so the first requests are
 * answered first; a task added after the start runs at once. A failing task is logged. After
 * `stop()` (the app closes) nothing more runs.
 */
export class AfterStart {
  private tasks: Task[] | null = [];
  private stopped = false;

  constructor(private readonly log: FastifyBaseLogger) {}

  add = (fn: Task): void => {
    if (this.stopped) return;
    if (this.tasks) this.tasks.push(fn);
    else this.run(fn);
  };

  stop(): void {
    this.stopped = true;
    this.tasks = null;
  }

  start = (): void => {
    const tasks = this.tasks;
    if (!tasks) return;
    this.tasks = null;
    const next = () => {
      const fn = tasks.shift();
      if (!fn || this.stopped) return;
      this.run(fn);
      setImmediate(next);
    };
    setImmediate(next);
  };

  private run(fn: Task): void {
    try {
      void Promise.resolve(fn()).catch((err: unknown) => this.log.warn({ err }, 'a background start failed'));
    } catch (err) {
      this.log.warn({ err }, 'a background start failed');
    }
  }
}
