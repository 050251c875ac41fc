import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { AfterStart } from './after-start';

const tick = () => new Promise((r) => setImmediate(r));

describe('AfterStart', () => {
  it('holds background work until the server listens, runs it one task per turn, then at once; nothing after stop', async () => {
    const ran: string[] = [];
    const bg = new AfterStart(pino({ level: 'silent' }));
    bg.add(() => void ran.push('scheduler'));
    bg.add(() => {
      throw new Error('a failing start is logged, not thrown');
    });
    bg.add(() => void ran.push('sweep'));
    await tick();
    expect(ran).toEqual([]);
    bg.start();
    expect(ran).toEqual([]);
    for (let i = 0; i < 4; i++) await tick();
    expect(ran).toEqual(['scheduler', 'sweep']);
    bg.add(() => void ran.push('later'));
    expect(ran).toEqual(['scheduler', 'sweep', 'later']);
    bg.stop();
    bg.add(() => void ran.push('after stop'));
    expect(ran).toHaveLength(3);
  });
});
