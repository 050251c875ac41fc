import { describe, expect, it } from 'vitest';
import type { StatsSample } from './stats';
import {
  applyStatsTick,
  DashboardStatsQuery,
  roundBytes,
  StatsTick,
  StatsTickEncoder,
  tickSample,
  type TickNumbers,
} from './stats-tick';

const MiB = 1024 * 1024;
const sample = (name: string, cpu: number, mem: number, bytes = 10 * MiB, total = 1000 * MiB): StatsSample => ({
  name,
  time: '2026-11-27T21:00:00Z',
  cpu_percent: cpu,
  mem_percent: mem,
  mem_current: bytes,
  mem_total: total,
});

/** Sends a frame as the stream does (JSON text, parsed and checked by the contract) into `state`. */
function receive(state: Map<string, TickNumbers>, frame: StatsTick) {
  return applyStatsTick(state, StatsTick.parse(JSON.parse(JSON.stringify(frame))));
}

describe('dashboard tick frames', () => {
  it('round-trips a full frame, a delta of only what changed, a removal and a return', () => {
    const enc = new StatsTickEncoder();
    const state = new Map<string, TickNumbers>();
    enc.stage(sample('a', 1.4, 10.2, 10 * MiB + 3));
    enc.stage(sample('b', 50.6, 20));
    expect(enc.commit(1000)).toBe(true);
    const first = enc.frame(null);
    expect(first).toEqual({
      t: 1000,
      full: true,
      apps: {
        a: { c: 1, m: 10, u: 10 * MiB, l: 1000 * MiB },
        b: { c: 51, m: 20, u: 10 * MiB, l: 1000 * MiB },
      },
    });
    expect(receive(state, first)).toEqual({ changed: ['a', 'b'], removed: [] });

    // a's CPU moves within what the card shows (1 %): nothing to send, no new tick.
    enc.stage(sample('a', 0.9, 10.2, 10 * MiB + 3));
    expect(enc.commit(2000)).toBe(false);
    // b's memory changes: only that number goes.
    enc.stage(sample('a', 1.2, 10.2, 10 * MiB + 3));
    enc.stage(sample('b', 50.6, 20, 12 * MiB));
    expect(enc.commit(3000)).toBe(true);
    const delta = enc.frame(1);
    expect(delta).toEqual({ t: 3000, apps: { b: { u: 12 * MiB } } });
    expect(receive(state, delta)).toEqual({ changed: ['b'], removed: [] });
    expect(state.get('b')).toEqual([51, 20, 12 * MiB, 1000 * MiB]);

    // b stops, c starts; a viewer two ticks behind gets both changes in one frame.
    enc.stageRemoval('b');
    enc.stage(sample('c', 3, 4));
    enc.commit(4000);
    enc.stage(sample('a', 7, 10.2, 10 * MiB + 3));
    enc.commit(5000);
    const behind = enc.frame(2);
    expect(behind).toEqual({
      t: 5000,
      apps: { a: { c: 7 }, c: { c: 3, m: 4, u: 10 * MiB, l: 1000 * MiB } },
      gone: ['b'],
    });
    expect(receive(state, behind)).toEqual({ changed: ['a', 'c'], removed: ['b'] });

    // b comes back: all its numbers again, and it is no longer gone.
    enc.stage(sample('b', 50.6, 20, 12 * MiB));
    enc.commit(6000);
    expect(enc.frame(4)).toEqual({ t: 6000, apps: { b: { c: 51, m: 20, u: 12 * MiB, l: 1000 * MiB } } });
    receive(state, enc.frame(4));

    // A fresh viewer and the one that followed every frame hold the same numbers.
    const fresh = new Map<string, TickNumbers>();
    receive(fresh, enc.frame(null));
    expect(fresh).toEqual(state);
    expect(tickSample('a', state.get('a')!, 6000)).toEqual({
      name: 'a',
      time: '1970-01-01T00:00:06.000Z',
      cpu_percent: 7,
      mem_percent: 10,
      mem_current: 10 * MiB,
      mem_total: 1000 * MiB,
    });
  });

  it('sends a full frame to a viewer behind a removal no longer kept, and the full frame drops apps not in it', () => {
    const enc = new StatsTickEncoder(2);
    const state = new Map<string, TickNumbers>();
    enc.stage(sample('a', 1, 1));
    enc.stage(sample('b', 1, 1));
    enc.commit(1);
    receive(state, enc.frame(null));
    enc.stageRemoval('b');
    enc.commit(2);
    for (let i = 3; i < 6; i++) {
      enc.stage(sample('a', i, 1));
      enc.commit(i);
    }
    const frame = enc.frame(1);
    expect(frame.full).toBe(true);
    expect(receive(state, frame)).toEqual({ changed: ['a'], removed: ['b'] });
    expect([...state.keys()]).toEqual(['a']);
  });

  it('skips an app a delta names only in part when it holds none of its numbers', () => {
    const state = new Map<string, TickNumbers>();
    expect(applyStatsTick(state, { t: 1, apps: { x: { c: 3 } } })).toEqual({ changed: [], removed: [] });
    expect(state.size).toBe(0);
  });

  it('rounds bytes to what a card shows and reads the format', () => {
    expect(roundBytes(1234)).toBe(Math.round(1.21 * 1024));
    expect(roundBytes(10 * MiB + 3)).toBe(10 * MiB);
    expect(roundBytes(0)).toBe(0);
    expect(DashboardStatsQuery.parse({})).toEqual({ format: 'samples' });
    expect(DashboardStatsQuery.safeParse({ format: 'xml' }).error?.issues[0]?.message).toMatch(/Unknown format/);
  });
});
