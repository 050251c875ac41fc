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
  it('reports a crash with its exit code, but not a clean exit or a stop that was asked for', () => {
    expect(run([ev('die', { exitCode: '0' })])).toEqual([]);
    expect(run([ev('kill', { signal: '15' }), ev('die', { exitCode: '143' })])).toEqual([]);
    const [died] = run([ev('die', { exitCode: '1', 'com.docker.compose.project': 'shop' })]);
    expect(died).toMatchObject({ event: 'container_died', app: 'web', project: 'shop', details: { exit_code: '1' } });
  });

  it('reports OOM, unhealthy, and every start after the first with the start times', () => {
    expect(run([ev('oom'), ev('health_status: unhealthy'), ev('health_status: healthy')]).map((c) => c.event)).toEqual([
      'oom',
      'unhealthy',
    ]);
    const loops = run([ev('start'), ev('start'), ev('start')]);
    expect(loops.map((c) => c.event)).toEqual(['restart_loop', 'restart_loop']);
    expect(loops[1]!.starts).toHaveLength(3);
  });
});
