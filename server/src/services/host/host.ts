import type { HostOverview } from '@berth/contract';
import type { Uses } from '../../context';
import type { EngineEvents, EngineObjectEvent } from '../../docker/events';
import { cpuBetween, readCpuTimes, readDisk, readMemory, type CpuTimes } from './host-proc';
import type { SseStream } from '../../lib/sse';

const STREAM_MS = 2000;
/** A first CPU reading needs a second one to compare with. */
const FIRST_CPU_WINDOW_MS = 250;
/** Answers within this age are shared by every viewer and scrape. */
const CACHE_MS = 1000;
/**
 * The engine's part (counts, version, data root) is read again after an engine event that can
 * change it, or after this long at the latest; while the event stream is down, on every answer.
 * (Asking the engine's info every two seconds per dashboard costs the engine more than the stats.)
 */
const ENGINE_FACTS_MAX_AGE_MS = 30_000;
/** The events that change a count the overview shows. */
const CHANGES_COUNTS: Partial<Record<EngineObjectEvent['type'], Set<string>>> = {
  container: new Set(['create', 'start', 'die', 'destroy', 'pause', 'unpause']),
  image: new Set(['pull', 'tag', 'untag', 'delete', 'import', 'load']),
  volume: new Set(['create', 'destroy']),
};

type EngineFacts = [Record<string, unknown>, unknown[]];

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/**
 * The host overview of one environment: counts and the engine's data root from one engine info
 * call plus one volume list (kept until engine events say they changed); CPU and memory from
 * /proc when the engine runs on Berth's host.
 */
export class HostService {
  private lastCpu: CpuTimes | null = null;
  private cached: { at: number; value: Promise<HostOverview> } | null = null;
  private facts: { at: number; generation: number; value: Promise<EngineFacts> } | null = null;
  /** Counts engine events that change the facts: a read begun before one is not kept. */
  private generation = 0;
  private offEvents: (() => void) | null = null;

  constructor(
    private readonly ctx: Uses<'docker' | 'log'>,
    /** The engine runs on Berth's host, so /proc and its data root are this host's. */
    private readonly local: boolean,
    private readonly events: EngineEvents,
  ) {}

  close(): void {
    this.offEvents?.();
    this.offEvents = null;
  }

  overview(): Promise<HostOverview> {
    const now = Date.now();
    if (this.cached && now - this.cached.at < CACHE_MS) return this.cached.value;
    const value = this.read();
    this.cached = { at: now, value };
    value.catch(() => (this.cached = null));
    return value;
  }

  /** Sends the overview every two seconds until the viewer leaves. */
  stream(sse: SseStream): void {
    let timer: NodeJS.Timeout | null = null;
    const tick = async () => {
      try {
        await sse.send(await this.overview());
      } catch (err) {
        this.ctx.log.debug({ err }, 'host overview failed; trying again');
        sse.comment('The Docker engine did not answer; trying again.');
      }
      if (!sse.closed) timer = setTimeout(() => void tick(), STREAM_MS);
    };
    sse.signal.addEventListener('abort', () => timer && clearTimeout(timer), { once: true });
    void tick();
  }

  private engineFacts(): Promise<EngineFacts> {
    if (!this.offEvents) {
      const changed = () => {
        this.generation++;
        this.facts = null;
      };
      // Container events and `resync` (events may have been missed), then images and volumes.
      const offContainers = this.events.subscribe((e) => {
        if (e.kind === 'resync' || CHANGES_COUNTS.container!.has(e.action)) changed();
      });
      const offObjects = this.events.subscribeObjects((e) => {
        if (e.type !== 'container' && CHANGES_COUNTS[e.type]?.has(e.action)) changed();
      });
      this.offEvents = () => {
        offContainers();
        offObjects();
      };
    }
    const maxAge = this.events.isConnected ? ENGINE_FACTS_MAX_AGE_MS : CACHE_MS;
    const f = this.facts;
    if (f && f.generation === this.generation && Date.now() - f.at < maxAge) return f.value;
    const value: Promise<EngineFacts> = Promise.all([this.ctx.docker.info(), this.ctx.docker.listVolumes()]);
    const entry = { at: Date.now(), generation: this.generation, value };
    this.facts = entry;
    value.catch(() => {
      if (this.facts === entry) this.facts = null;
    });
    return value;
  }

  private async read(): Promise<HostOverview> {
    const [[info, volumes], cpu] = await Promise.all([this.engineFacts(), this.local ? this.cpuPercent() : null]);
    const mem = this.local ? readMemory() : null;
    const root = typeof info.DockerRootDir === 'string' ? info.DockerRootDir : null;
    return {
      time: new Date().toISOString(),
      source: this.local && mem ? 'proc' : 'engine',
      cpu_percent: cpu,
      cpus: this.lastCpu?.cpus ?? num(info.NCPU),
      mem_used: mem?.used ?? null,
      mem_total: mem?.total ?? num(info.MemTotal),
      disk: this.local && root ? readDisk(root) : null,
      containers: {
        running: num(info.ContainersRunning),
        stopped: num(info.ContainersStopped) + num(info.ContainersPaused),
      },
      images: num(info.Images),
      volumes: volumes.length,
      engine_version: typeof info.ServerVersion === 'string' ? info.ServerVersion : null,
    };
  }

  private async cpuPercent(): Promise<number | null> {
    let before = this.lastCpu;
    if (!before) {
      before = readCpuTimes();
      await new Promise((r) => setTimeout(r, FIRST_CPU_WINDOW_MS));
    }
    const now = readCpuTimes();
    if (!before || !now) return null;
    this.lastCpu = now;
    return cpuBetween(before, now);
  }
}
