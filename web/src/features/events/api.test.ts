import { describe, expect, it } from 'vitest';
import type { EngineEventRecord } from '@berth/contract';
import { EVENTS_SHOWN, mergeEvents } from './api';

const ev = (id: number): EngineEventRecord => ({
  id,
  time: new Date(id * 1000).toISOString(),
  environment: 'local',
  type: 'container',
  action: 'start',
  actor_id: 'x',
  name: 'web',
  attributes: {},
});

describe('mergeEvents', () => {
  it('puts streamed events first, newest first, without repeating a replayed one', () => {
    expect(mergeEvents([ev(3), ev(2)], [ev(3), ev(4), ev(5)]).map((e) => e.id)).toEqual([5, 4, 3, 2]);
  });

  it('keeps at most the newest EVENTS_SHOWN', () => {
    const many = Array.from({ length: EVENTS_SHOWN + 10 }, (_, i) => ev(i + 1));
    const merged = mergeEvents(undefined, many);
    expect(merged).toHaveLength(EVENTS_SHOWN);
    expect(merged[0]!.id).toBe(EVENTS_SHOWN + 10);
  });
});
