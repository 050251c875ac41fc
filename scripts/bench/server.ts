// The Berth server under measurement, in its own process so its memory is its own. The parent
// (scripts/bench/apps.ts) talks to it over IPC: 'ready' with the URL, then probes on request.
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../server/src/config';
import { buildApp } from '../../server/src/app';

export interface Probe {
  type: 'probe';
  rss: number;
  heapUsed: number;
  /** Engine stats streams open in the stats hub. */
  openStreams: number;
  /** Samples the stats hub has received from the engine so far. */
  samplesReceived: number;
  /** Which stats source the hub runs. */
  source: string;
  /** Size of the stats history file (with its WAL). */
  historyBytes: number;
  /** Every sample the hub handed out since start, as [app, sample time in ms] (what every viewer should get). */
  fanned?: Array<[string, number]>;
  /** Reads of the app list answered from the local environment's list cache and from an engine list (null: no cache). */
  listServed: { cache: number; engine: number } | null;
  /** CPU time used since the previous probe, in microseconds (user + system). */
  cpuMicros: number;
  at: number;
}

async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn' });
  const { app, services } = await buildApp(config);
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const { hub } = services.environments.local;
  const historyBytes = () =>
    ['stats-history.db', 'stats-history.db-wal'].reduce(
      (n, f) => n + (fs.existsSync(path.join(config.dataDir, f)) ? fs.statSync(path.join(config.dataDir, f)).size : 0),
      0,
    );
  // A listener inside the server: the samples the hub fans out, to compare with what each viewer got.
  const fanned: Array<[string, number]> = [];
  hub.watchAll({ sample: (s) => fanned.push([s.name, Date.parse(s.time)]), removed: () => undefined });
  let last = process.cpuUsage();
  process.on('message', (msg: { type?: string; fanned?: boolean }) => {
    if (msg?.type === 'probe') {
      const cpu = process.cpuUsage(last);
      last = process.cpuUsage();
      const m = process.memoryUsage();
      const probe: Probe = {
        type: 'probe',
        rss: m.rss,
        heapUsed: m.heapUsed,
        openStreams: hub.openStreams,
        samplesReceived: hub.samplesReceived,
        source: hub.source,
        historyBytes: historyBytes(),
        cpuMicros: cpu.user + cpu.system,
        listServed: services.environments.local.apps.listCache
          ? { ...services.environments.local.apps.listCache.served }
          : null,
        at: Date.now(),
        ...(msg.fanned ? { fanned } : {}),
      };
      process.send?.(probe);
    } else if (msg?.type === 'stop') {
      void app.close().then(() => process.exit(0));
    }
  });
  process.on('disconnect', () => void app.close().then(() => process.exit(0)));
  process.send?.({ type: 'ready', url });
}

main().catch((err: unknown) => {
  console.error('bench server failed:', err);
  process.exit(1);
});
