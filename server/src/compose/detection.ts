import type { FastifyBaseLogger } from 'fastify';
import { probeComposeCli, type ComposeCli } from './cli';

const FIRST_RETRY_MS = 5_000;
const MAX_RETRY_MS = 5 * 60_000;

/** The fields of the app context the detection keeps up to date. */
export interface ComposeState {
  compose: ComposeCli | null;
  composeReady: Promise<void> | null;
  /** A probe timed out and none answered: the CLI may be there (a slow host); not the same as absent. */
  composeUnknown?: boolean;
  log: FastifyBaseLogger;
}

/**
 * Finds the compose CLI in the background. A probe that timed out leaves the CLI unknown (not
 * absent): it is looked for again with back-off, and at once on the next compose request, so a
 * slow start does not disable compose until a restart.
 */
export class ComposeDetection {
  private timer: NodeJS.Timeout | null = null;
  private delay = FIRST_RETRY_MS;
  private looking: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly state: ComposeState,
    private readonly env: Readonly<Record<string, string>>,
    private readonly timeoutMs: number,
  ) {}

  /** The first look, at start: `composeReady` stands for it. */
  start(): void {
    this.state.composeReady = this.look().then(() => {
      this.state.composeReady = null;
    });
  }

  /** While the CLI is unknown: look again now (one look for all callers at a time). */
  retryNow(): Promise<void> {
    return this.state.composeUnknown ? this.look() : Promise.resolve();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private look(): Promise<void> {
    this.looking ??= probeComposeCli(this.env, this.timeoutMs)
      .then(({ cli, timedOut }) => {
        if (cli) {
          if (this.state.composeUnknown)
            this.state.log.info({ version: cli.version }, 'compose CLI found on a later look');
          this.state.compose = cli;
          this.state.composeUnknown = false;
          if (this.timer) clearTimeout(this.timer);
          return;
        }
        this.state.composeUnknown = timedOut;
        if (!timedOut) return;
        this.state.log.warn(
          `the compose CLI did not answer within ${this.timeoutMs / 1000} s; looking again in ${this.delay / 1000} s`,
        );
        this.schedule();
      })
      .finally(() => {
        this.looking = null;
      });
    return this.looking;
  }

  private schedule(): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.delay = Math.min(this.delay * 2, MAX_RETRY_MS);
      void this.look();
    }, this.delay);
    this.timer.unref();
  }
}
