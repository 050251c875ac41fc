import type Docker from 'dockerode';
import { EngineError } from '../errors';
import type { ByteStream, RegistryAuth } from './engine';
import type { Caller } from './swarm-engine';

/** The engine's build query (`POST /build`), as far as Berth sets it. */
export interface BuildQuery {
  /** Names for the image (`repo:tag`), repeated. */
  t?: string[];
  dockerfile?: string;
  buildargs?: Record<string, string>;
  target?: string;
  nocache?: boolean;
  pull?: boolean;
  networkmode?: string;
  labels?: Record<string, string>;
}

/**
 * Moving images in and out of the engine: build, push, save and load. Each answers the engine's
 * stream (JSON progress lines, or the archive) once the engine has accepted the request; the
 * uploads (`build`'s context, `load`'s archive) are piped through, never held here, so the
 * timeout covers the whole upload, and `signal` ends it (and the engine's work) early.
 */
export interface ImageTransfer {
  build(context: NodeJS.ReadableStream | null, query: BuildQuery, opts: TransferOptions): Promise<ByteStream>;
  push(ref: string, auth: RegistryAuth | null, signal?: AbortSignal): Promise<ByteStream>;
  /** A `docker save` archive of every name in `refs`. */
  save(refs: string[], signal?: AbortSignal): Promise<ByteStream>;
  load(archive: NodeJS.ReadableStream, signal?: AbortSignal): Promise<ByteStream>;
}

export interface TransferOptions {
  signal?: AbortSignal;
  /** Credentials by registry host, for the base images a build pulls (X-Registry-Config). */
  registries?: Record<string, RegistryAuth>;
}

/** Uploads and long builds: as long as the client keeps the request open, within this bound. */
const TRANSFER_TIMEOUT_MS = 60 * 60_000;

type Dial = (o: object, cb: (err: unknown, data: unknown) => void) => void;

export class DockerodeImageTransfer implements ImageTransfer {
  constructor(
    private readonly docker: Docker,
    private readonly call: Caller,
  ) {}

  private dial(options: object): Promise<ByteStream> {
    const modem = this.docker.modem as unknown as { dial: Dial };
    return new Promise((resolve, reject) =>
      modem.dial(options, (err, data) => (err ? reject(err) : resolve(data as ByteStream))),
    );
  }

  build(context: NodeJS.ReadableStream | null, query: BuildQuery, opts: TransferOptions): Promise<ByteStream> {
    const { t, ...rest } = query;
    // The engine takes `t` repeated; docker-modem writes an array as repeated keys.
    const options = { ...rest, ...(t?.length ? { t } : {}), rm: true, forcerm: true };
    return this.call(
      { kind: 'image', doing: 'building an image' },
      (abortSignal) =>
        this.dial({
          path: '/build?',
          method: 'POST',
          // Query only: without a context, docker-modem would send the options as a JSON body too,
          // which the engine reads as the (empty) context of a remote build.
          options: { _query: options, _body: {} },
          ...(context ? { file: context } : {}),
          ...(opts.registries && Object.keys(opts.registries).length ? { registryconfig: opts.registries } : {}),
          isStream: true,
          abortSignal,
          statusCodes: { 200: true, 400: 'bad parameter', 500: 'server error' },
        }),
      { signal: opts.signal, timeoutMs: TRANSFER_TIMEOUT_MS },
    );
  }

  async push(ref: string, auth: RegistryAuth | null, signal?: AbortSignal): Promise<ByteStream> {
    const at = ref.lastIndexOf(':');
    const slash = ref.lastIndexOf('/');
    const [name, tag] = at > slash ? [ref.slice(0, at), ref.slice(at + 1)] : [ref, 'latest'];
    try {
      return await this.call(
        { kind: 'image', ref, doing: `pushing image ${ref}` },
        (abortSignal) =>
          this.dial({
            path: `/images/${name}/push?`,
            method: 'POST',
            options: { _query: { tag }, _body: {} },
            // The engine requires the header; `{}` is an anonymous push.
            authconfig: { base64: Buffer.from(JSON.stringify(auth ?? {})).toString('base64') },
            isStream: true,
            abortSignal,
            statusCodes: { 200: true, 404: 'no such image', 500: 'server error' },
          }),
        { slow: true, ...(signal ? { signal } : {}) },
      );
    } catch (err) {
      if (err instanceof EngineError && err.statusCode >= 500)
        throw new EngineError(502, `Pushing ${ref} failed: ${err.message}`);
      throw err;
    }
  }

  save(refs: string[], signal?: AbortSignal): Promise<ByteStream> {
    return this.call(
      { kind: 'image', ref: refs.join(', '), doing: `exporting ${refs.join(', ')}` },
      (abortSignal) =>
        this.dial({
          path: '/images/get?',
          method: 'GET',
          options: { names: refs },
          isStream: true,
          abortSignal,
          statusCodes: { 200: true, 404: 'no such image', 500: 'server error' },
        }),
      { slow: true, ...(signal ? { signal } : {}) },
    );
  }

  load(archive: NodeJS.ReadableStream, signal?: AbortSignal): Promise<ByteStream> {
    return this.call(
      { kind: 'image', doing: 'loading images' },
      (abortSignal) =>
        this.dial({
          path: '/images/load?',
          method: 'POST',
          options: { quiet: false },
          file: archive,
          isStream: true,
          abortSignal,
          statusCodes: { 200: true, 400: 'bad parameter', 500: 'server error' },
        }),
      { ...(signal ? { signal } : {}), timeoutMs: TRANSFER_TIMEOUT_MS },
    );
  }
}
