import { describe, expect, it } from 'vitest';
import {
  deleteImageText,
  emptyPull,
  foldPull,
  imageCommand,
  imageNames,
  imageTag,
  newestTag,
  shortImageId,
} from './model';

const ID = `sha256:${'abcdef0123'}${'9'.repeat(54)}`;

describe('imageTag', () => {
  it('uses the tag a container uses, else the newest, then the digest repository, then 10 characters of the id', () => {
    const tags = ['app:1.9', 'app:1.10', 'app:1.2'];
    expect(imageTag({ Id: ID, RepoTags: tags, RepoDigests: [], usedTags: ['app:1.2'] })).toBe('app:1.2');
    expect(imageTag({ Id: ID, RepoTags: tags, RepoDigests: [], usedTags: [] })).toBe('app:1.10');
    expect(newestTag([...tags, 'app:latest'])).toBe('app:latest');
    expect(newestTag(['a:1', 'b:2'])).toBe('b:2');
    expect(imageTag({ Id: ID, RepoTags: [], RepoDigests: ['127.0.0.1:5000/x/y@sha256:00'] })).toBe(
      '127.0.0.1:5000/x/y',
    );
    expect(imageTag({ Id: ID, RepoTags: [], RepoDigests: [] })).toBe('abcdef0123');
    expect(shortImageId(ID)).toBe('abcdef0123');
  });
});

describe('imageCommand', () => {
  it('shows a command only when the image sets one', () => {
    expect(
      imageCommand({ Cmd: ['sh', '-c', 'echo hi'], Entrypoint: null, ExposedPorts: null, Labels: null, Env: null }),
    ).toBe('sh -c echo hi');
    expect(imageCommand({ Cmd: null, Entrypoint: ['/init'], ExposedPorts: null, Labels: null, Env: null })).toBeNull();
    expect(imageCommand({ Cmd: [], Entrypoint: null, ExposedPorts: null, Labels: null, Env: null })).toBeNull();
  });
});

describe('foldPull', () => {
  it('tracks layers and an overall percentage', () => {
    let s = foldPull(emptyPull, [
      { id: 'latest', status: 'Pulling from berth-test/busybox' },
      { id: 'aaaaaaaaaaaa', status: 'Pulling fs layer' },
      { id: 'bbbbbbbbbbbb', status: 'Pulling fs layer' },
    ]);
    expect(s.messages).toEqual(['latest: Pulling from berth-test/busybox']);
    expect(s.layers.map((l) => l.id)).toEqual(['aaaaaaaaaaaa', 'bbbbbbbbbbbb']);
    expect(s.percent).toBeNull();
    s = foldPull(s, [
      { id: 'aaaaaaaaaaaa', status: 'Downloading', current: 50, total: 100 },
      { id: 'bbbbbbbbbbbb', status: 'Downloading', current: 0, total: 300 },
    ]);
    expect(s.percent).toBe(13);
    s = foldPull(s, [
      { id: 'aaaaaaaaaaaa', status: 'Pull complete' },
      { id: 'bbbbbbbbbbbb', status: 'Pull complete' },
      { status: 'Digest: sha256:00' },
    ]);
    expect(s.percent).toBe(100);
    expect(s.layers[0]).toMatchObject({ status: 'Pull complete', total: 100 });
  });

  it('reaches 100 when every layer already exists', () => {
    const s = foldPull(emptyPull, [{ id: 'aaaaaaaaaaaa', status: 'Already exists' }]);
    expect(s.percent).toBe(100);
  });
});

describe('imageNames', () => {
  it('lists every tag then every digest, and the delete text counts the tags that go', () => {
    const image = { Id: ID, RepoTags: ['a:1', 'b:2'], RepoDigests: ['a@sha256:00'] };
    expect(imageNames(image)).toEqual(['a:1', 'b:2', 'a@sha256:00']);
    expect(deleteImageText(image)).toMatch(/all 2 tags/);
    expect(deleteImageText({ ...image, RepoTags: ['a:1'] })).toMatch(/its tag:/);
    expect(deleteImageText({ ...image, RepoTags: [] })).toMatch(/untagged image abcdef0123/);
  });
});

describe('build form', () => {
  it('splits tags on commas and spaces, and reads KEY=value build arguments', async () => {
    const { splitTags, parseBuildArgs } = await import('./model');
    expect(splitTags(' a:1, b:2\nc ')).toEqual(['a:1', 'b:2', 'c']);
    expect(parseBuildArgs('VERSION=1.2\nURL=http://x/?a=b\nnoise\n')).toEqual({ VERSION: '1.2', URL: 'http://x/?a=b' });
  });
});
