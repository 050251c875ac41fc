import { describe, expect, it } from 'vitest';
import { readSchedule } from './cron';

const FIVE_MIN = 5 * 60 * 1000;

describe('readSchedule', () => {
  it('names an expression croner cannot read, and one that runs more often than the minimum gap', () => {
    expect(readSchedule('every day', FIVE_MIN)).toEqual({ problem: 'unreadable' });
    expect(readSchedule('0 4 * * * * *', FIVE_MIN).problem).toBe('unreadable');
    expect(readSchedule('*/2 * * * *', FIVE_MIN)).toEqual({ problem: 'too_often' });
    // A gap that only shows late in the day is found too (03:00 and 03:01).
    expect(readSchedule('0,1 3 * * *', FIVE_MIN)).toEqual({ problem: 'too_often' });
    expect(readSchedule('*/2 * * * *', 60_000).problem).toBeNull();
  });

  it('gives the next runs in the time zone the server fires in', () => {
    const utc = readSchedule('30 2 * * *', FIVE_MIN, 3, 'UTC');
    expect(utc.problem).toBeNull();
    expect(utc.next!.map((d) => d.toISOString().slice(11, 16))).toEqual(['02:30', '02:30', '02:30']);
    expect(utc.next![1]!.getTime() - utc.next![0]!.getTime()).toBe(24 * 3600 * 1000);
    const tokyo = readSchedule('30 2 * * *', FIVE_MIN, 1, 'Asia/Tokyo');
    expect(tokyo.next![0]!.toISOString().slice(11, 16)).toBe('17:30');
  });
});
