import { describe, expect, it } from 'vitest';
import type { LogArchive } from '@berth/contract';
import { howItEnded, keptUntil, timeSpan } from './model';

const archive = (over: Partial<LogArchive> = {}): LogArchive => ({
  id: 1,
  name: 'web',
  containerId: 'a'.repeat(64),
  project: null,
  service: null,
  image: 'nginx',
  startedAt: '2026-11-27T09:00:00Z',
  finishedAt: '2026-11-27T11:00:00Z',
  exitCode: 0,
  firstLineAt: new Date(2026, 10, 27, 10, 0, 1).toISOString(),
  lastLineAt: new Date(2026, 10, 27, 10, 5, 33).toISOString(),
  lines: 2000,
  bytes: 1000,
  storedBytes: 100,
  reason: 'replaced',
  capturedAt: new Date(2026, 10, 27, 12).toISOString(),
  removedAt: null,
  exists: false,
  ...over,
});

describe('kept logs in words', () => {
  it('spans the kept lines, naming the day once', () => {
    expect(timeSpan(archive())).toBe('2026-11-27 10:00:01 – 10:05:33');
    expect(timeSpan(archive({ lastLineAt: new Date(2026, 10, 28, 1, 2, 3).toISOString() }))).toBe(
      '2026-11-27 10:00:01 – 2026-11-28 01:02:03',
    );
    expect(timeSpan(archive({ firstLineAt: null, lastLineAt: null, startedAt: null, finishedAt: null }))).toBe('-');
  });

  it('says how the container ended and until when its lines stay', () => {
    expect(howItEnded(archive({ exitCode: 137 }))).toBe('Replaced by a newer container (exit code 137)');
    expect(howItEnded(archive({ reason: 'died', exitCode: 3, exists: true }))).toBe(
      'Stopped (exit code 3); the container still exists',
    );
    expect(keptUntil(archive(), 7)).toBe('2026-12-04');
  });
});
