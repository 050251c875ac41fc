import type { EngineEventRecord } from '@berth/contract';
import { describe, expect, it } from 'vitest';
import { containerWatcher, type Candidate } from './watch';

let nextId = 1;
const ev = (action: string, attributes: Record<string, string> = {}, at = Date.now()): EngineEventRecord => ({
  id: nextId++,
  time: new Date(at).toISOString(),
  environment: 'local',
  type: 'container',
  action,
  actor_id: 'c1',
  name: 'web',
  attributes: { name: 'web', ...attributes },
});

function run(events: EngineEventRecord[]): Candidate[] {
  const out: Candidate[] = [];
  const watch = containerWatcher('local', (c) => out.push(c));
  for (const e of events) watch(e);
  return out;
}

describe('containerWatcher', () => {
  const only = (event: string, events: EngineEventRecord[]) => run(events).filter((c) => c.event === event);

  it('reports a crash with its exit code, but not a clean exit or a stop that was asked for', () => {
    expect(only('container_died', [ev('die', { exitCode: '0' })])).toEqual([]);
    expect(only('container_died', [ev('kill', { signal: '15' }), ev('die', { exitCode: '143' })])).toEqual([]);
    const [died] = only('container_died', [ev('die', { exitCode: '1', 'com.docker.compose.project': 'shop' })]);
    expect(died).toMatchObject({ event: 'container_died', app: 'web', project: 'shop', details: { exit_code: '1' } });
  });

  it('reports every stop, asked for or not, clean or not, and every start', () => {
    const stops = only('container_stopped', [
      ev('kill', { signal: '15' }),
      ev('die', { exitCode: '143' }),
      ev('die', { exitCode: '0' }),
      ev('die', { exitCode: '1' }),
    ]);
    expect(stops.map((c) => c.details)).toEqual([
      { app: 'web', environment: 'local', exit_code: '143', asked: 'yes' },
      { app: 'web', environment: 'local', exit_code: '0', asked: 'yes' },
      { app: 'web', environment: 'local', exit_code: '1', asked: 'yes' },
    ]);
    expect(only('container_stopped', [ev('die', { exitCode: '2' })])[0]!.details.asked).toBe('no');
    expect(only('container_started', [ev('start'), ev('start')])).toHaveLength(2);
  });

  it('reports OOM, unhealthy, every health change, and every start after the first with the start times', () => {
    const events = [ev('oom'), ev('health_status: unhealthy'), ev('health_status: healthy')];
    expect(run(events).map((c) => c.event)).toEqual(['oom', 'health_changed', 'unhealthy', 'health_changed']);
    expect(only('health_changed', events).map((c) => c.details.health)).toEqual(['unhealthy', 'healthy']);
    const loops = only('restart_loop', [ev('start'), ev('start'), ev('start')]);
    expect(loops.map((c) => c.event)).toEqual(['restart_loop', 'restart_loop']);
    expect(loops[1]!.starts).toHaveLength(3);
  });
});
