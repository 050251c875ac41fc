import type { HostOverview } from '@berth/contract';
import type { AppContext } from '../context';
import { cpuBetween, readCpuTimes, readDisk, readMemory, type CpuTimes } from '../docker/host-proc';
import type { SseStream } from '../lib/sse';

const STREAM_MS = 2000;
/** A first CPU reading needs a second one to compare with. */
const FIRST_CPU_WINDOW_MS = 250;
/** Answers within this age are shared by every viewer and scrape. */
const CACHE_MS = 1000;

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/**
 * The host overview of one environment: counts and the engine's data root from one engine info
 * call plus one volume list; CPU and memory from /proc when the engine runs on Berth's host.
 */
export class HostService {
  private lastCpu: CpuTimes | null = null;
  private cached: { at: number; value: Promise<HostOverview> } | null = null;

  constructor(
    private readonly ctx: AppContext,
    /** The engine runs on Berth's host, so /proc and its data root are this host's. */
    private readonly local: boolean,
  ) {}

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

  private async read(): Promise<HostOverview> {
    const [info, volumes, cpu] = await Promise.all([this.ctx.docker.info(), this.ctx.docker.listVolumes(), this.local ? this.cpuPercent() : null]);
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
      containers: { running: num(info.ContainersRunning), stopped: num(info.ContainersStopped) + num(info.ContainersPaused) },
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
