import { describe, expect, it } from 'vitest';
import { chooseVersionMove } from '../auto-update/auto-update-policy';
import { newerTags, parseVersionTag, versionMoves } from './version-tags';

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

describe('moves by version policy (issue 33)', () => {
  const repo = '127.0.0.1:5000/team/app';
  it('names the same repository with the newer tag, and nothing for a digest, no tag or the digest policy', () => {
    expect(versionMoves(`${repo}:1.0.0`, TAGS, 'minor')).toEqual([
      { tag: '1.1.0', ref: `${repo}:1.1.0` },
      { tag: '1.0.1', ref: `${repo}:1.0.1` },
    ]);
    expect(versionMoves(`${repo}:1.0.0`, TAGS, 'digest')).toEqual([]);
    expect(versionMoves(repo, TAGS, 'major')).toEqual([]);
    expect(versionMoves(`${repo}:1.0.0@sha256:${'a'.repeat(64)}`, TAGS, 'major')).toEqual([]);
  });

  it('passes over tags that failed the health gate and says which', () => {
    const bad = new Set([`${repo}:2.0.0`]);
    expect(chooseVersionMove(`${repo}:1.0.0`, TAGS, 'major', (r) => bad.has(r))).toEqual({
      move: { tag: '1.1.0', ref: `${repo}:1.1.0` },
      skipped: ['2.0.0'],
    });
    expect(chooseVersionMove(`${repo}:1.1.0`, TAGS, 'major', (r) => bad.has(r))).toEqual({
      move: null,
      skipped: ['2.0.0'],
    });
  });
});
