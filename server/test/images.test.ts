import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError, ImageDetail, ImageSummary } from '@berth/contract';
import { createTestApp, type TestApp } from './helpers/app';
import { dockerCli, testEngine } from './helpers/engine';
import { buildImage, cleanup, exists, parseSse, uniqueName } from './images-fixtures';

const BASE = '/api/resources/images/';

describe('images', () => {
  let t: TestApp;
  const tags: string[] = [];
  const containers: string[] = [];

  /** A fresh local image and a created (never started) container that uses it. */
  const imageWithStoppedContainer = () => {
    const tag = `${uniqueName('images')}:v1`;
    tags.push(tag);
    const id = buildImage(tag);
    const name = uniqueName('images-c');
    containers.push(name);
    dockerCli(['create', '--name', name, '--label', 'berth.test=1', tag]);
    return { tag, id };
  };

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    cleanup('container', ...containers);
    cleanup('image', ...tags);
    await t?.close();
  });

  it('lists images with how many containers use each', async () => {
    const { tag, id } = imageWithStoppedContainer();

    const res = await t.client.get<ImageSummary[]>(BASE);
    expect(res.status).toBe(200);
    const mine = res.body.find((i) => i.Id === id);
    expect(mine).toMatchObject({ RepoTags: [tag], inUse: 1 });
    expect(new Date(mine!.Created).getTime()).toBeGreaterThan(Date.now() - 10 * 60_000);
    const unused = res.body.find((i) => i.RepoTags.includes(testEngine().image));
    expect(unused?.inUse).toBeTypeOf('number');
  });

  it('names the tags containers were made from, and the shared size when the engine counts it', async () => {
    const { tag, id } = imageWithStoppedContainer();
    // Two more tags of the same image; a container made from the second one.
    const [repo] = tag.split(':');
    const [v2, v10] = [`${repo}:v2`, `${repo}:v10`];
    tags.push(v2, v10);
    dockerCli(['tag', tag, v2]);
    dockerCli(['tag', tag, v10]);
    const second = uniqueName('images-c');
    containers.push(second);
    dockerCli(['create', '--name', second, '--label', 'berth.test=1', v2]);
    const mine = (await t.client.get<ImageSummary[]>(BASE)).body.find((i) => i.Id === id)!;
    expect(mine.inUse).toBe(2);
    expect([...mine.usedTags].sort()).toEqual([tag, v2].sort());
    expect(mine.RepoTags).toContain(v10);
    // An engine before API 1.42 does not count shared layers (-1): that is null, never a negative size.
    const api = Number(dockerCli(['version', '--format', '{{.Server.APIVersion}}']).trim());
    if (api >= 1.42) expect(mine.SharedSize).toBeGreaterThanOrEqual(0);
    else expect(mine.SharedSize).toBeNull();
  });

  it('shows one image with its run configuration and 404s an unknown one', async () => {
    const tag = `${uniqueName('images')}:v1`;
    tags.push(tag);
    const id = buildImage(tag, { 'berth.purpose': 'detail' });
    const res = await t.client.get<ImageDetail>(`${BASE}${encodeURIComponent(id)}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ Id: id, RepoTags: [tag], inUse: 0, Os: 'linux' });
    expect(res.body.Architecture).toBeTruthy();
    expect(res.body.ContainerConfig.Labels).toMatchObject({ 'berth.purpose': 'detail', 'berth.test': '1' });
    expect(res.body.ContainerConfig.Cmd).toEqual(['sh']);

    const byTag = await t.client.get<ImageDetail>(`${BASE}${encodeURIComponent(tag)}`);
    expect(byTag.body.Id).toBe(id);

    const missing = await t.client.get<ApiError>(`${BASE}sha256:${'0'.repeat(64)}`);
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toMatch(/no such image/i);
  });

  it('refuses a malformed reference with 400 before asking the engine', async () => {
    for (const image of [
      'nginx;id',
      '--help',
      'UPPER/Case:tag',
      'a@sha256:xyz',
      'x'.repeat(300),
      '127.0.0.1:5000/Bad',
    ]) {
      const res = await t.client.post<ApiError>(BASE, { image });
      expect(res.status, image).toBe(400);
      expect(res.body.code).toBe('validation_error');
      expect(res.body.fields?.[0]?.field).toBe('image');
    }
    const extra = await t.client.post<ApiError>(BASE, { image: 'busybox', fromSrc: '-' });
    expect(extra.status).toBe(400);
    const traversal = await t.client.get<ApiError>(`${BASE}..%2F..%2Fcontainers%2Fjson`);
    expect(traversal.status).toBe(400);
  });

  it('pulls from the local registry and streams progress when asked for events', async () => {
    const { image } = testEngine();
    const res = await t.client.post(BASE, { image }, { accept: 'text/event-stream' });
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/text\/event-stream/);
    const events = parseSse(res.text);
    const progress = events.filter((e) => e.event === 'progress');
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.map((e) => (e.data as { status: string }).status).join('\n')).toMatch(
      /Digest: sha256:|up to date|Downloaded/,
    );
    const done = events.at(-1);
    expect(done?.event).toBe('done');
    expect((done?.data as ImageSummary[]).some((i) => i.RepoTags.includes(image))).toBe(true);
  });

  it('pulls a registry reference with a port as plain JSON too', async () => {
    const { image } = testEngine();
    const res = await t.client.post<ImageSummary[]>(BASE, { image: image.replace(/:latest$/, '') });
    expect(res.status).toBe(200);
    expect(res.body.some((i) => i.RepoTags.includes(image))).toBe(true);
  });

  it('answers an unknown tag with the engine error as JSON, even when events were asked for', async () => {
    const { registry } = testEngine();
    const res = await t.client.post<ApiError>(
      BASE,
      { image: `${registry}/berth-test/busybox:${uniqueName('missing')}` },
      { accept: 'text/event-stream' },
    );
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    expect(res.body.detail).toMatch(/manifest|not found/i);
  });

  it('pulls an image again by its tag and answers with the image that tag names', async () => {
    // An image of its own with one tag, in the harness's registry: the shared test image gathers
    // tags from other tests (private registries' names among them) that this call may not pull.
    const image = `${testEngine().registry}/berth-test/${uniqueName('images-repull')}:v1`;
    const id = buildImage(image);
    tags.push(image);
    dockerCli(['push', image], { timeoutMs: 120_000 });
    const res = await t.client.post<ImageDetail>(`${BASE}${encodeURIComponent(id)}/pull`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.RepoTags).toEqual([image]);

    const viaGet = await t.client.get<ImageDetail>(`${BASE}${encodeURIComponent(id)}/pull`);
    expect(viaGet.status).toBe(200);
    const noCsrf = await t.client.get<ApiError>(`${BASE}${encodeURIComponent(id)}/pull`, { 'x-csrf-token': '' });
    expect(noCsrf.status).toBe(401);
    expect(noCsrf.body.code).toBe('csrf_failed');
  });

  it('refuses to pull an untagged image again with 409', async () => {
    const tag = `${uniqueName('images')}:v1`;
    const old = buildImage(tag);
    buildImage(tag); // takes the tag over, leaving the first image untagged
    tags.push(tag, old);
    const res = await t.client.post<ApiError>(`${BASE}${encodeURIComponent(old)}/pull`);
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/no tag/);
  });

  it('deletes an unused image with all its tags and returns it as it was', async () => {
    const tag = `${uniqueName('images')}:v1`;
    const second = tag.replace(':v1', ':v2');
    const id = buildImage(tag);
    dockerCli(['tag', tag, second]);
    tags.push(tag, second);
    const res = await t.client.delete<ImageDetail>(`${BASE}${encodeURIComponent(id)}`);
    expect(res.status).toBe(200);
    expect(res.body.Id).toBe(id);
    expect(res.body.RepoTags.sort()).toEqual([tag, second].sort());
    expect(exists('image', id)).toBe(false);
    expect(exists('image', testEngine().image)).toBe(true);
  });

  it('refuses to delete an image a stopped container uses, with the engine reason', async () => {
    const { tag, id } = imageWithStoppedContainer();
    const res = await t.client.delete<ApiError>(`${BASE}${encodeURIComponent(id)}`);
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/container/);
    expect(exists('image', id)).toBe(true);
    expect(dockerCli(['image', 'inspect', '--format', '{{json .RepoTags}}', id]).trim()).toBe(JSON.stringify([tag]));
  });

  it('untags one tag of a multi-tagged image, keeps the image, and refuses its last tag or an unknown one', async () => {
    const tag = `${uniqueName('images')}:v1`;
    const second = tag.replace(':v1', ':v2');
    const id = buildImage(tag);
    dockerCli(['tag', tag, second]);
    tags.push(tag, second);
    const url = (t: string) => `${BASE}${encodeURIComponent(id)}/tags/${encodeURIComponent(t)}`;

    const res = await t.client.delete<ImageDetail>(url(second));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ Id: id, RepoTags: [tag] });
    expect(exists('image', second)).toBe(false);
    expect(exists('image', id)).toBe(true);

    const last = await t.client.delete<ApiError>(url(tag));
    expect(last.status).toBe(409);
    expect(last.body.detail).toMatch(/only tag/);
    const unknown = await t.client.delete<ApiError>(url(`${tag}x`));
    expect(unknown.status).toBe(404);
    const bad = await t.client.delete<ApiError>(url('no-colon'));
    expect(bad.status).toBe(400);
    expect(exists('image', tag)).toBe(true);
  });
});
