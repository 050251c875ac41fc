import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { ValidationError } from '../../errors';
import { safeArchiveName, type ArchiveStore } from './destinations';

export interface S3Config {
  /** null: AWS itself (the region's endpoint). */
  endpoint: string | null;
  region: string;
  bucket: string;
  /** Keys are `<prefix>/<name>` ('' for the bucket's root), without slashes at either end. */
  prefix: string;
  access_key_id: string;
  path_style: boolean;
}
export interface S3Secret {
  secret_access_key: string;
}

/**
 * Multipart parts of 8 MiB, two in flight: an archive streams through ~16 MiB of memory whatever its
 * size, up to S3's 10,000 parts (78 GiB).
 */
const PART_BYTES = 8 * 1024 * 1024;
const QUEUE = 2;

/** The AWS SDK, loaded on first use (hundreds of modules few installs need). */
const sdk = () => import('@aws-sdk/client-s3');

/** How long a connection may take, and a request stay silent (no byte either way), before it fails. */
const CONNECT_MS = 15_000;
const IDLE_MS = 60_000;

async function client(cfg: S3Config, secret: S3Secret, idleMs: number): Promise<S3Client> {
  return new (await sdk()).S3Client({
    // The SDK waits forever by default: an endpoint that takes the connection and never answers would hang the run.
    requestHandler: { connectionTimeout: CONNECT_MS, socketTimeout: idleMs },
    region: cfg.region,
    ...(cfg.endpoint ? { endpoint: cfg.endpoint } : {}),
    forcePathStyle: cfg.path_style,
    // Explicit credentials: the SDK's provider chain (environment, ~/.aws, instance metadata) is never asked.
    credentials: { accessKeyId: cfg.access_key_id, secretAccessKey: secret.secret_access_key },
    maxAttempts: 3,
    // Checksums only where S3 requires them: the SDK's default CRC32 trailers (aws-chunked uploads)
    // are refused by many S3-compatible servers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** An S3 failure in words that name the bucket and key, never a credential. */
function failure(cfg: S3Config, key: string, err: unknown): ValidationError {
  const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = e.$metadata?.httpStatusCode ? ` (HTTP ${e.$metadata.httpStatusCode})` : '';
  return new ValidationError(`S3 ${cfg.bucket}/${key}: ${e.name ?? 'Error'}${status}: ${e.message ?? String(err)}`);
}

/** An S3-compatible bucket: streamed multipart upload, streamed download, list, delete. */
export function s3Store(
  cfg: S3Config,
  secret: S3Secret,
  { idleMs = IDLE_MS }: { idleMs?: number } = {},
): ArchiveStore & { list(): Promise<string[]> } {
  const key = (name: string) => (cfg.prefix ? `${cfg.prefix}/${safeArchiveName(name)}` : safeArchiveName(name));
  const using = async <T>(name: string, fn: (s3: S3Client, at: string) => Promise<T>): Promise<T> => {
    const s3 = await client(cfg, secret, idleMs);
    try {
      return await fn(s3, key(name));
    } catch (err) {
      throw err instanceof ValidationError ? err : failure(cfg, key(name), err);
    } finally {
      s3.destroy();
    }
  };
  return {
    put: (name, data) =>
      using(name, async (s3, at) => {
        // Upload aborts the multipart upload on a failure, so no parts are left behind.
        const { Upload } = await import('@aws-sdk/lib-storage');
        const upload = new Upload({
          client: s3,
          params: { Bucket: cfg.bucket, Key: at, Body: data, ContentType: 'application/octet-stream' },
          partSize: PART_BYTES,
          queueSize: QUEUE,
        });
        data.once('error', () => void upload.abort().catch(() => undefined));
        await upload.done();
      }),
    async get(name) {
      const s3 = await client(cfg, secret, idleMs);
      try {
        const res = await s3.send(new (await sdk()).GetObjectCommand({ Bucket: cfg.bucket, Key: key(name) }));
        const body = res.Body as Readable;
        body.once('close', () => s3.destroy());
        return body;
      } catch (err) {
        s3.destroy();
        throw failure(cfg, key(name), err);
      }
    },
    remove: (name) =>
      using(name, async (s3, at) => {
        await s3.send(new (await sdk()).DeleteObjectCommand({ Bucket: cfg.bucket, Key: at }));
      }),
    /** The archive names under the prefix (manifests included). */
    list: () =>
      using('list', async (s3) => {
        const names: string[] = [];
        const base = cfg.prefix ? `${cfg.prefix}/` : '';
        let token: string | undefined;
        do {
          // Listed by the prefix without its trailing slash (and filtered here): some S3-compatible
          // servers (moto) check the signature of an encoded slash in the query wrongly.
          const page = await s3.send(
            new (await sdk()).ListObjectsV2Command({
              Bucket: cfg.bucket,
              Prefix: cfg.prefix || undefined,
              ContinuationToken: token,
            }),
          );
          for (const o of page.Contents ?? [])
            if (o.Key?.startsWith(base) && !o.Key.slice(base.length).includes('/'))
              names.push(o.Key.slice(base.length));
          token = page.IsTruncated ? page.NextContinuationToken : undefined;
        } while (token);
        return names;
      }),
    async check() {
      const probe = 'berth-check.tmp';
      await using(probe, async (s3, at) =>
        s3.send(new (await sdk()).PutObjectCommand({ Bucket: cfg.bucket, Key: at, Body: 'ok' })),
      );
      if (!(await this.list()).includes(probe))
        throw new ValidationError(`S3 ${cfg.bucket}: an object written is not listed under ${cfg.prefix || '/'}.`);
      await this.remove(probe);
    },
  };
}

/** An endpoint as stored: without a trailing slash. */
export const s3Endpoint = (url: string | null): string | null => (url ? url.replace(/\/+$/, '') : null);
