import {
  IMAGE_UPLOAD_MAX_BYTES,
  parseImageReference,
  type BuildImageOptions,
  type BuildResult,
  type PullProgress,
} from '@berth/contract';
import type { ByteStream, Engine, RegistryAuth } from '../../docker/engine';
import type { BuildQuery } from '../../docker/image-transfer';
import { ConflictError, EngineError, ValidationError } from '../../errors';
import type { Actor, PolicyGate } from '../policy';
import type { GitSnapshots, GitSnapshotSource } from '../git';
import { capped, folderContext, prepareContext, UPLOAD_TOO_LARGE, type PreparedContext } from './build-context';
import { followEngineStream, toProgress } from './engine-progress';
import { inspectImage } from './engine-images';

/** The registry credential for an image reference's host, or null to go anonymous. */
export type RegistryAuthLookup = (ref: string) => RegistryAuth | undefined;

export interface BuildInput {
  options: BuildImageOptions;
  /** The uploaded context, as it arrives. */
  context?: NodeJS.ReadableStream;
}

/** Where a build from git takes its context: the git service's throwaway copies of one commit. */
export type GitContexts = Pick<GitSnapshots, 'check' | 'with'>;

/**
 * The repository, ref, folder and credential of a build from git. The engine's own notation
 * `url#ref:folder` is read too; the fields `ref` and `subdir` win over it.
 */
export function gitBuildSource(git: NonNullable<BuildImageOptions['git']>): GitSnapshotSource & { subdir: string } {
  const hash = git.url.indexOf('#');
  const url = hash < 0 ? git.url : git.url.slice(0, hash);
  const fragment = hash < 0 ? '' : git.url.slice(hash + 1);
  const colon = fragment.indexOf(':');
  const [ref, subdir] = colon < 0 ? [fragment, ''] : [fragment.slice(0, colon), fragment.slice(colon + 1)];
  return {
    url,
    ref: git.ref || ref || null,
    subdir: git.subdir || subdir,
    credentialId: git.credential_id ?? null,
  };
}

/** `Successfully built 0123abcd` (the classic builder's last line) when no aux ID came. */
const BUILT = /Successfully built ([0-9a-f]{12,64})/;

/** A build's output can be long; the error says what its last lines were. */
const tail = (text: string) => text.trimEnd().split('\n').slice(-5).join('\n');

/** `repo` → `repo:latest`; `repo:tag` as it is. */
function fullTag(name: string): string {
  const ref = parseImageReference(name);
  return 'error' in ref ? name : `${ref.repository}:${ref.tag ?? 'latest'}`;
}

/** Build, tag, push, export and load on one engine. */
export class ImageTransferService {
  constructor(
    private readonly docker: Engine,
    private readonly policy: PolicyGate,
    private readonly registryAuth: RegistryAuthLookup = () => undefined,
    private readonly git: GitContexts | null = null,
  ) {}

  /** Refuses a build before anything is sent: what the policy refuses, or two contexts at once. */
  async checkBuild(actor: Actor, o: BuildImageOptions, hasContext: boolean): Promise<void> {
    if (o.network === 'host')
      await this.policy.check(actor, [{ rule: 'host_network', value: 'host', field: 'network' }]);
    if (o.git && hasContext)
      throw new ValidationError('Build from git or from an uploaded context, not both.', [
        { field: 'git', message: 'Leave it empty to build the uploaded context.' },
      ]);
    if (!o.git && !hasContext && o.dockerfile === undefined)
      throw new ValidationError('Type a Dockerfile, upload a context or name a git repository.', [
        { field: 'dockerfile', message: 'Required without a context.' },
      ]);
    if (o.git) this.gitContexts().check(gitBuildSource(o.git));
  }

  private gitContexts(): GitContexts {
    if (!this.git)
      throw new ValidationError('Builds from git are not available here.', [{ field: 'git', message: '' }]);
    return this.git;
  }

  /**
   * Builds an image and answers its id. The policy judges what a build can reach beyond a
   * container's defaults (its RUN steps on the host network). `onOutput` gets the engine's
   * output as it comes; `signal` cancels (the engine request is closed, which stops the build).
   */
  async build(
    actor: Actor,
    input: BuildInput,
    onOutput: (text: string) => void,
    signal?: AbortSignal,
  ): Promise<BuildResult> {
    const o = input.options;
    await this.checkBuild(actor, o, Boolean(input.context));
    const query: BuildQuery = {
      t: o.tags,
      buildargs: o.build_args,
      nocache: o.no_cache,
      pull: o.pull,
      ...(o.target ? { target: o.target } : {}),
      ...(o.network !== 'default' ? { networkmode: o.network } : {}),
    };
    if (o.git) {
      const src = gitBuildSource(o.git);
      onOutput(`Fetching ${src.url}${src.ref ? ` at ${src.ref}` : ''}…\n`);
      // The copy lives until the engine has read the context from it, then goes.
      return this.gitContexts().with(src, signal, async (folder, commit) => {
        onOutput(`Checked out ${commit.slice(0, 12)}${src.subdir ? `, building ${src.subdir}/` : ''}\n`);
        const context = await folderContext(folder, src.subdir, o.dockerfile_path);
        return this.run(query, context, await this.registriesFor(context.text, o.tags), o.tags, onOutput, signal);
      });
    }
    const context = await prepareContext({
      upload: input.context,
      dockerfile: o.dockerfile,
      dockerfilePath: o.dockerfile_path,
    });
    return this.run(query, context, await this.registriesFor(o.dockerfile ?? '', o.tags), o.tags, onOutput, signal);
  }

  /** Sends a prepared context to the engine's build and follows it to the image it made. */
  private async run(
    query: BuildQuery,
    context: PreparedContext,
    registries: Record<string, RegistryAuth>,
    tags: string[],
    onOutput: (text: string) => void,
    signal?: AbortSignal,
  ): Promise<BuildResult> {
    const { cleanup } = context;
    // A context that fails half-way (too large, unreadable) ends the engine request with it.
    const abort = new AbortController();
    const done = context.done.catch((err: unknown) => {
      abort.abort();
      throw err;
    });
    done.catch(() => undefined);
    let stream: ByteStream;
    try {
      stream = await this.docker.images.build(
        context.stream,
        { ...query, dockerfile: context.dockerfile },
        { signal: signal ? AbortSignal.any([signal, abort.signal]) : abort.signal, registries },
      );
    } catch (err) {
      await cleanup();
      await done; // the context's own failure says more than the aborted request
      throw err;
    }
    let id: string | null = null;
    let output = '';
    try {
      await followEngineStream(
        stream,
        (line) => {
          if (line.aux?.ID) id = line.aux.ID;
          const text =
            line.stream ?? (line.status ? `${[line.id, line.status, line.progress].filter(Boolean).join(' ')}\n` : '');
          if (!text) return;
          output = (output + text).slice(-8192);
          onOutput(text);
        },
        { what: 'build', signal, idleMs: 30 * 60_000 },
      );
      await done;
    } catch (err) {
      if (err instanceof EngineError && err.statusCode === 502)
        throw new EngineError(502, `The build failed: ${err.message}${output ? `\n${tail(output)}` : ''}`.trim());
      throw err;
    } finally {
      await cleanup();
    }
    id ??= BUILT.exec(output)?.[1] ?? null;
    if (!id) throw new EngineError(502, 'The engine finished the build without naming the image it made.');
    const image = await inspectImage(this.docker, id);
    return { id: image.Id, tags: tags.map(fullTag) };
  }

  /** Credentials for the registries of the base images a Dockerfile may pull (the tags' registries too). */
  private async registriesFor(dockerfile: string, tags: string[]): Promise<Record<string, RegistryAuth>> {
    const out: Record<string, RegistryAuth> = {};
    const froms = [...dockerfile.matchAll(/^\s*FROM\s+(?:--\S+\s+)*(\S+)/gim)].map((m) => m[1]!);
    for (const ref of [...froms, ...tags]) {
      const auth = this.registryAuth(ref);
      if (auth?.serveraddress) out[auth.serveraddress] = auth;
    }
    return out;
  }

  /** Gives the image the name `repo:tag` and answers its id. */
  async tag(id: string, repo: string, tag: string): Promise<string> {
    const ref = parseImageReference(`${repo}:${tag}`);
    if ('error' in ref) throw new ValidationError(ref.error, [{ field: 'repo', message: ref.error }]);
    const image = await inspectImage(this.docker, id);
    await this.docker.tagImage(image.Id, ref.repository, tag);
    return image.Id;
  }

  /** Pushes one tag of the image, or each of its tags; answers the digests the registry gave. */
  async push(
    id: string,
    tag: string | undefined,
    onProgress: (p: PullProgress) => void,
    signal?: AbortSignal,
  ): Promise<{ pushed: { tag: string; digest: string | null }[] }> {
    const image = await inspectImage(this.docker, id);
    const tags = tag ? [fullTag(tag)] : image.RepoTags;
    if (!tags.length)
      throw new ConflictError('This image has no tag to push: tag it as registry/repository:tag first.');
    for (const t of tags)
      if (!image.RepoTags.includes(t))
        throw new ValidationError(`${t} is not a tag of this image.`, [
          { field: 'tag', message: 'Not a tag of this image.' },
        ]);
    const pushed: { tag: string; digest: string | null }[] = [];
    for (const t of tags) {
      const stream = await this.docker.images.push(t, this.registryAuth(t) ?? null, signal);
      let digest: string | null = null;
      await followEngineStream(
        stream,
        (line) => {
          if (line.aux?.Digest) digest = line.aux.Digest;
          onProgress(toProgress(line));
        },
        { what: 'push', signal },
      );
      pushed.push({ tag: t, digest });
    }
    return { pushed };
  }

  /**
   * A `docker save` archive of the images `ids` name, by their tags (so a load names them
   * again; an untagged one goes by its id), and a file name for the download.
   */
  async export(ids: string[], signal?: AbortSignal): Promise<{ filename: string; stream: ByteStream }> {
    const names: string[] = [];
    for (const id of ids) {
      const image = await inspectImage(this.docker, id);
      names.push(...(image.RepoTags.length ? image.RepoTags : [image.Id]));
    }
    const unique = [...new Set(names)];
    const first = unique[0]!.replace(/^sha256:/, '').slice(0, 24);
    const filename = ids.length === 1 ? `${first.replace(/[^A-Za-z0-9._-]+/g, '_')}.tar` : `images-${ids.length}.tar`;
    return { filename, stream: await this.docker.images.save(unique, signal) };
  }

  /** Loads a `docker save` archive streamed from the client; answers what it named. */
  async load(
    archive: NodeJS.ReadableStream,
    onProgress: (p: PullProgress) => void,
    signal?: AbortSignal,
  ): Promise<string[]> {
    const limited = capped(IMAGE_UPLOAD_MAX_BYTES, UPLOAD_TOO_LARGE);
    archive.on('error', (err: Error) => limited.destroy(err));
    const abort = new AbortController();
    let failure: unknown = null;
    limited.on('error', (err) => {
      failure = err;
      abort.abort();
    });
    const loaded: string[] = [];
    try {
      const stream = await this.docker.images.load(
        archive.pipe(limited),
        signal ? AbortSignal.any([signal, abort.signal]) : abort.signal,
      );
      await followEngineStream(
        stream,
        (line) => {
          const name = /Loaded image(?: ID)?: (\S+)/.exec(line.stream ?? '')?.[1];
          if (name) loaded.push(name);
          else onProgress(toProgress(line));
        },
        { what: 'load', signal },
      );
    } catch (err) {
      if (failure) throw failure;
      // The engine's refusal of the archive itself (not a tar, no manifest) is the upload's fault.
      if (err instanceof EngineError && (err.statusCode === 502 || err.statusCode === 500 || err.statusCode === 400))
        throw new ValidationError(`The engine could not load the archive: ${err.message}`);
      throw err;
    }
    if (!loaded.length) throw new ValidationError('The archive held no image (is it a docker save .tar?).');
    return loaded;
  }
}
