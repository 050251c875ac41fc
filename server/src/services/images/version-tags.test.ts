import { describe, expect, it } from 'vitest';
import { newerTags, parseVersionTag } from './version-tags';

const TAGS = ['1.0.0', '1.0.1', '1.1.0', '2.0.0', 'latest', '1.0.1-alpine', '1.2', 'v1.3.0', '0.9.0'];

describe('newer version tags', () => {
  it('moves 1.0.0 to the newest tag within patch, minor or major', () => {
    expect(newerTags('1.0.0', TAGS, 'patch')[0]).toBe('1.0.1');
    expect(newerTags('1.0.0', TAGS, 'minor')[0]).toBe('1.1.0');
    expect(newerTags('1.0.0', TAGS, 'major')).toEqual(['2.0.0', '1.1.0', '1.0.1']);
    expect(newerTags('1.0.0', TAGS, 'digest')).toEqual([]);
  });

  it('keeps the suffix, the v prefix and the precision of the tag', () => {
    expect(newerTags('1.0.0-alpine', TAGS, 'major')).toEqual(['1.0.1-alpine']);
    expect(newerTags('1.1', TAGS, 'major')).toEqual(['1.2']);
    expect(newerTags('v1.2.0', TAGS, 'major')).toEqual(['v1.3.0']);
    expect(newerTags('latest', TAGS, 'major')).toEqual([]);
    expect(parseVersionTag('1.4.2-alpine')).toMatchObject({ suffix: '3-alpine' });
    expect(parseVersionTag('stable')).toBeNull();
  });
});
