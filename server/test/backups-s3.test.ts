import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError, BackupArchive, BackupDestination, BackupJob, BackupRun, RestoreResult } from '@berth/contract';
import { createTestApp, type TestApp } from './helpers/app';
import { dockerCli, testEngine } from './helpers/engine';
import { cleanup, uniqueName } from './images-fixtures';
import { fillVolume, volumeCreate } from './backups-fixtures';

const B = '/api/backups';
/** The harness's S3-compatible server (scripts/test-env-s3.sh: moto, signatures checked). */
const env = process.env;
const S3 = {
  endpoint: env.BERTH_TEST_S3_ENDPOINT!,
  region: env.BERTH_TEST_S3_REGION ?? 'us-east-1',
  bucket: env.BERTH_TEST_S3_BUCKET!,
  access_key_id: env.BERTH_TEST_S3_ACCESS_KEY!,
  secret_access_key: env.BERTH_TEST_S3_SECRET_KEY!,
};

describe('backups to an S3-compatible bucket', () => {
  let t: TestApp;
  const volumes: string[] = [];
  const source = uniqueName('bks3');
  // One segment: moto refuses the signature of a listing whose prefix has an (encoded) slash.
  const prefix = uniqueName('p');

  beforeAll(async () => {
    expect(S3.endpoint, 'scripts/test-env-s3.sh did not export BERTH_TEST_S3_* (no moto here?)').toBeTruthy();
    t = await createTestApp({ HELPER_IMAGE: testEngine().image });
    volumes.push(source);
    volumeCreate(source);
    fillVolume(source, 50);
    // 3 MiB more of random data: the archive passes one 8 MiB part, so it goes up as a multipart upload.
    dockerCli([
      'run',
      '--rm',
      '-v',
      `${source}:/v`,
      testEngine().image,
      'dd',
      'if=/dev/urandom',
      'of=/v/more',
      'bs=1M',
      'count=3',
    ]);
  }, 120_000);
  afterAll(async () => {
    cleanup('volume', ...volumes);
    await t?.close();
  });

  const objects = async () => {
    const s3 = new S3Client({
      endpoint: S3.endpoint,
      region: S3.region,
      forcePathStyle: true,
      credentials: { accessKeyId: S3.access_key_id, secretAccessKey: S3.secret_access_key },
    });
    const page = await s3.send(new ListObjectsV2Command({ Bucket: S3.bucket, Prefix: prefix }));
    s3.destroy();
    return page.Contents ?? [];
  };
  const keys = async () => (await objects()).map((o) => o.Key!.slice(prefix.length + 1)).sort();

  it('refuses a wrong secret, backs up (multipart, streamed), restores byte-identical and removes by retention', async () => {
    const wrong = await t.client.post<ApiError>(`${B}/destinations`, {
      kind: 's3',
      name: 'bucket-wrong',
      ...S3,
      prefix,
      secret_access_key: 'not-the-secret-key',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.detail).toMatch(/SignatureDoesNotMatch/);
    expect(wrong.text).not.toContain('not-the-secret-key');

    const dest = await t.client.post<BackupDestination>(`${B}/destinations`, {
      kind: 's3',
      name: 'bucket',
      ...S3,
      prefix: `/${prefix}/`,
    });
    expect(dest.status, dest.text).toBe(200);
    expect(dest.body).toMatchObject({ kind: 's3', path: prefix, bucket: S3.bucket, has_secret: true });
    const listed = await t.client.get<BackupDestination[]>(`${B}/destinations`);
    expect(listed.text).not.toContain(S3.secret_access_key);
    expect(dest.text).not.toContain(S3.secret_access_key);

    const job = await t.client.post<BackupJob>(`${B}/jobs`, {
      name: uniqueName('s3job'),
      volumes: [source],
      destination_id: dest.body.id,
      keep_last: 1,
    });
    expect(job.status, job.text).toBe(200);
    const first = await t.client.post<BackupRun>(`${B}/jobs/${job.body.id}/run`);
    expect(first.body, first.text).toMatchObject({ outcome: 'ok' });
    expect(await keys()).toEqual([first.body.archive, `${first.body.archive}.json`]);
    // A multipart upload's ETag ends in -<parts>.
    const stored = (await objects()).find((o) => o.Key === `${prefix}/${first.body.archive}`);
    expect(stored?.ETag).toMatch(/-2"$/);

    const archive = (await t.client.get<BackupArchive[]>(`${B}/archives?job_id=${job.body.id}`)).body[0]!;
    const into = uniqueName('bks3-into');
    volumes.push(into);
    const restored = await t.client.post<RestoreResult>(`${B}/restore`, {
      archive_id: archive.id,
      volume: source,
      into,
    });
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body.verified).toBe(true);
    expect(restored.body.tree.sha256).toBe(archive.manifest.volumes[0]!.sha256);

    await new Promise((r) => setTimeout(r, 1100)); // archive names carry the second
    const second = await t.client.post<BackupRun>(`${B}/jobs/${job.body.id}/run`);
    expect(second.body).toMatchObject({ outcome: 'ok' });
    // keep_last 1: the first archive and its manifest are gone from the bucket.
    expect(await keys()).toEqual([second.body.archive, `${second.body.archive}.json`]);
    const drill = await t.client.post<BackupRun>(`${B}/jobs/${job.body.id}/drill`);
    expect(drill.body).toMatchObject({ kind: 'drill', outcome: 'ok' });

    const audit = await t.client.get('/api/audit?limit=50');
    expect(audit.text).not.toContain(S3.secret_access_key);
  }, 180_000);
});
