import type { Counter, Gauge, Registry } from 'prom-client';
import { listStates } from '../apps/containers';
import type { Engine } from '../../docker/engine';
import type { EngineEvents } from '../../docker/events';
import type { HostService } from '../host/host';
import type { StatsHistory } from './stats-history';

/** What the metrics read of the local environment. */
export interface MetricsSources {
  docker: Engine;
  events: EngineEvents;
  history: StatsHistory;
  host: HostService;
}

interface Instruments {
  registry: Registry;
  running: Gauge;
  cpu: Gauge;
  mem: Gauge;
  memLimit: Gauge;
  restarts: Counter;
  host: Record<'cpu' | 'memUsed' | 'memTotal' | 'diskUsed' | 'diskTotal' | 'images' | 'volumes', Gauge>;
  containers: Gauge;
}

/**
 * Prometheus metrics of the local environment, through prom-client: each app's CPU, memory,
 * restarts and running state, the host's figures and Berth's own process. Built on the first
 * scrape (prom-client's process collectors start timers; the library itself is loaded then, so
 * an install nobody scrapes never holds it), then kept.
 */
export class MetricsService {
  private inst: Promise<Instruments> | null = null;
  /** Apps seen exiting: their next start counts as a restart. */
  private exited = new Set<string>();
  private restartCounts = new Map<string, number>();
  private offEvents: (() => void) | null = null;

  constructor(private readonly sources: () => MetricsSources) {}

  /** The metrics in Prometheus' text format, with the content type to send them with. */
  async metrics(): Promise<{ text: string; contentType: string }> {
    const inst = await this.instruments();
    const src = this.sources();
    const [list, host] = await Promise.all([listStates(src.docker), src.host.overview()]);
    inst.running.reset();
    for (const c of list) inst.running.set({ app: c.name }, c.running ? 1 : 0);
    for (const g of [inst.cpu, inst.mem, inst.memLimit]) g.reset();
    for (const [app, s] of src.history.latest) {
      inst.cpu.set({ app }, s.cpu_percent);
      inst.mem.set({ app }, s.mem_current);
      inst.memLimit.set({ app }, s.mem_total);
    }
    inst.restarts.reset();
    for (const [app, n] of this.restartCounts) inst.restarts.inc({ app }, n);
    const h = inst.host;
    if (host.cpu_percent !== null) h.cpu.set(host.cpu_percent);
    if (host.mem_used !== null) h.memUsed.set(host.mem_used);
    h.memTotal.set(host.mem_total);
    if (host.disk) {
      h.diskUsed.set(host.disk.used);
      h.diskTotal.set(host.disk.total);
    }
    h.images.set(host.images);
    h.volumes.set(host.volumes);
    inst.containers.set({ state: 'running' }, host.containers.running);
    inst.containers.set({ state: 'stopped' }, host.containers.stopped);
    return { text: await inst.registry.metrics(), contentType: inst.registry.contentType };
  }

  close(): void {
    this.offEvents?.();
    this.offEvents = null;
  }

  private instruments(): Promise<Instruments> {
    if (this.inst) return this.inst;
    this.offEvents = this.sources().events.subscribe((e) => {
      if (e.kind !== 'container') return;
      if (e.action === 'die') this.exited.add(e.name);
      else if (e.action === 'start' && this.exited.delete(e.name))
        this.restartCounts.set(e.name, (this.restartCounts.get(e.name) ?? 0) + 1);
    });
    this.inst = this.build();
    return this.inst;
  }

  private async build(): Promise<Instruments> {
    const { collectDefaultMetrics, Counter, Gauge, Registry } = await import('prom-client');
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    const gauge = (name: string, help: string, labelNames: string[] = []) =>
      new Gauge({ name, help, labelNames, registers: [registry] });
    return {
      registry,
      running: gauge('berth_app_running', '1 when the app (container) runs, 0 when it does not', ['app']),
      cpu: gauge('berth_app_cpu_percent', 'CPU use of a running app in percent of one core (like docker stats)', [
        'app',
      ]),
      mem: gauge('berth_app_memory_bytes', 'Memory in use by a running app, file cache excluded (like docker stats)', [
        'app',
      ]),
      memLimit: gauge(
        'berth_app_memory_limit_bytes',
        "A running app's memory limit (the host's memory when it has none)",
        ['app'],
      ),
      restarts: new Counter({
        name: 'berth_app_restarts_total',
        help: 'Starts of an app after it had exited, seen since Berth started',
        labelNames: ['app'],
        registers: [registry],
      }),
      host: {
        cpu: gauge('berth_host_cpu_percent', 'Busy share of all host CPUs in percent'),
        memUsed: gauge('berth_host_memory_used_bytes', 'Host memory in use (total minus available)'),
        memTotal: gauge('berth_host_memory_total_bytes', 'Host memory'),
        diskUsed: gauge('berth_host_disk_used_bytes', "Used bytes of the file system of the engine's data root"),
        diskTotal: gauge('berth_host_disk_total_bytes', "Size of the file system of the engine's data root"),
        images: gauge('berth_images', 'Images on the engine'),
        volumes: gauge('berth_volumes', 'Volumes on the engine'),
      },
      containers: gauge('berth_containers', 'Containers on the engine by state', ['state']),
    };
  }
}
