import { describe, expect, it } from 'vitest';
import { FrameDemuxer, LineSplitter, sinceParam, splitTimestamp } from './logs';

function frame(stream: number, text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  const header = Buffer.alloc(8);
  header[0] = stream;
  header.writeUInt32BE(payload.length, 4);
  return Buffer.concat([header, payload]);
}

describe('FrameDemuxer', () => {
  it('splits stdout and stderr frames', () => {
    const d = new FrameDemuxer();
    const frames = d.push(Buffer.concat([frame(1, 'out\n'), frame(2, 'err\n')]));
    expect(frames.map((f) => [f.stream, f.payload.toString()])).toEqual([
      [1, 'out\n'],
      [2, 'err\n'],
    ]);
  });

  it('reassembles a frame cut anywhere, header included', () => {
    const whole = Buffer.concat([frame(1, 'hello world\n'), frame(2, 'second\n')]);
    for (let cut = 1; cut < whole.length; cut++) {
      const d = new FrameDemuxer();
      const got = [...d.push(whole.subarray(0, cut)), ...d.push(whole.subarray(cut))].map((f) => f.payload.toString());
      expect(got).toEqual(['hello world\n', 'second\n']);
    }
  });
});

describe('LineSplitter', () => {
  it('cuts lines on newlines across chunks and strips a carriage return', () => {
    const s = new LineSplitter();
    expect(s.push(Buffer.from('a\nb'))).toEqual(['a']);
    expect(s.push(Buffer.from('c\r\nd'))).toEqual(['bc']);
    expect(s.flush()).toEqual(['d']);
  });

  it('keeps multi-byte characters split between chunks intact', () => {
    const bytes = Buffer.from('héllo ✓\n', 'utf8');
    const s = new LineSplitter();
    expect([...s.push(bytes.subarray(0, 2)), ...s.push(bytes.subarray(2))]).toEqual(['héllo ✓']);
  });

  it('caps a long line and drops the rest of it', () => {
    const s = new LineSplitter(10);
    const lines = [...s.push(Buffer.from('x'.repeat(25))), ...s.push(Buffer.from('yyy\nnext\n'))];
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(`${'x'.repeat(10)} …[line truncated]`);
    expect(lines[1]).toBe('next');
  });

  it('keeps empty lines', () => {
    expect(new LineSplitter().push(Buffer.from('a\n\nb\n'))).toEqual(['a', '', 'b']);
  });
});

describe('splitTimestamp', () => {
  it('splits the engine timestamp off and keeps nanoseconds exactly', () => {
    const l = splitTimestamp('2024-05-01T12:00:00.123456789Z tick tock');
    expect(l.text).toBe('tick tock');
    expect(l.ts).toBe('2024-05-01T12:00:00.123456789Z');
    expect(l.nanos).toBe(BigInt(Date.parse('2024-05-01T12:00:00Z')) * 1_000_000n + 123_456_789n);
  });

  it('handles short fractions and offsets', () => {
    const a = splitTimestamp('2024-05-01T12:00:00.5Z x').nanos!;
    const b = splitTimestamp('2024-05-01T14:00:00.5+02:00 x').nanos!;
    expect(a).toBe(b);
    expect(a % 1_000_000_000n).toBe(500_000_000n);
  });

  it('leaves a line without a timestamp alone', () => {
    expect(splitTimestamp('plain line')).toEqual({ text: 'plain line', ts: null, nanos: null });
  });
});

describe('sinceParam', () => {
  it('writes seconds.nanoseconds for the engine', () => {
    expect(sinceParam(1_714_564_800_000_000_001n)).toBe('1714564800.000000001');
    expect(sinceParam(1_714_564_800_123_456_789n)).toBe('1714564800.123456789');
  });
});
