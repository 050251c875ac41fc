import { z } from 'zod';
import { defineRoute } from '../route';
import { ImageDetail, ImageIdParams, ImageSummary } from './image';
import { parseImageReference } from './image-reference';

/** An uploaded build context or image archive is refused beyond this many bytes (as sent). */
export const IMAGE_UPLOAD_MAX_BYTES = 8 * 1024 * 1024 * 1024;
/** A typed Dockerfile is at most this long. */
export const DOCKERFILE_MAX_CHARS = 256 * 1024;

/** `repo:tag` (or `repo`, meaning latest) that a build or a tag names; no digest. */
export const ImageTagName = z
  .string()
  .trim()
  .min(1, 'A tag is required.')
  .superRefine((value, ctx) => {
    const parsed = parseImageReference(value);
    if ('error' in parsed) ctx.addIssue({ code: 'custom', message: parsed.error });
    else if (parsed.digest) ctx.addIssue({ code: 'custom', message: 'A tag names no digest (@sha256:…).' });
  });

/**
 * A git repository (Berth fetches it and sends the folder as the context): `url`, or the engine's
 * notation `url#ref:subfolder` (the fields `ref` and `subdir` win over it).
 */
const GitRemote = z
  .string()
  .trim()
  .max(2048)
  .refine(
    (v) => /^(git:\/\/|https?:\/\/|git@|ssh:\/\/)[^\s]+$/.test(v) && !v.startsWith('-'),
    'A git URL starts with git://, http(s)://, ssh:// or git@ (e.g. https://example.org/app.git#main:docker).',
  );

const BuildArgName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'A build argument is named like VERSION or HTTP_PROXY.');

/**
 * How to build. The context is one of: `dockerfile` alone (a context holding only it), an
 * uploaded archive (`.tar`, `.tar.gz` or `.zip`, with or without a typed `dockerfile`), or `git`
 * (Berth fetches the ref with the git credential named, as a git-backed project's checkout is, and
 * sends the folder; no typed Dockerfile then, `dockerfile_path` picks one in the folder).
 */
export const BuildImageOptions = z
  .strictObject({
    /** The Dockerfile's text, as typed in the editor. */
    dockerfile: z.string().max(DOCKERFILE_MAX_CHARS, 'The Dockerfile is at most 256 KiB.').optional(),
    /** Where the Dockerfile is inside an uploaded context or the repository (default `Dockerfile`). */
    dockerfile_path: z
      .string()
      .trim()
      .max(1024)
      .refine((p) => !p.startsWith('/') && !p.split('/').includes('..'), 'A path inside the context, without ../.')
      .optional(),
    git: z
      .strictObject({
        url: GitRemote,
        /** A branch, tag or commit (default: the repository's default branch). */
        ref: z
          .string()
          .trim()
          .max(255)
          .regex(/^[A-Za-z0-9._/-]*$/, 'A ref is a branch, tag or commit name.')
          .optional(),
        /** The folder of the repository that is the context. */
        subdir: z
          .string()
          .trim()
          .max(1024)
          .regex(/^[A-Za-z0-9._/-]*$/, 'A folder name without spaces.')
          .refine((p) => !p.split('/').includes('..'), 'A folder inside the repository, without ../.')
          .optional(),
        /** A stored git credential (Settings → Git credentials) for a private repository; none: anonymous. */
        credential_id: z.string().max(100).nullable().optional(),
      })
      .optional(),
    tags: z.array(ImageTagName).max(20).default([]),
    build_args: z.record(BuildArgName, z.string().max(8192)).default({}),
    target: z
      .string()
      .trim()
      .max(128)
      .regex(/^[A-Za-z0-9._-]*$/, 'A stage name.')
      .optional(),
    no_cache: z.boolean().default(false),
    pull: z.boolean().default(false),
    /** The network of the build's RUN steps; `host` is judged by the policy like a container's. */
    network: z.enum(['default', 'none', 'host']).default('default'),
  })
  .refine((o) => !(o.git && o.dockerfile), {
    message: 'A build from git uses the repository’s Dockerfile: leave the editor empty or upload a context instead.',
    path: ['dockerfile'],
  });
export type BuildImageOptions = z.output<typeof BuildImageOptions>;
export type BuildImageRequest = z.input<typeof BuildImageOptions>;

/** The end of a build: the image it made and the tags it got. */
export const BuildResult = z.object({ id: z.string(), tags: z.array(z.string()) });
export type BuildResult = z.infer<typeof BuildResult>;

/** The events of a build's stream: `output` (text), then `done` (BuildResult) or `error` ({detail, code}). */
export const BuildStreamEvent = { output: 'output', done: 'done', error: 'error' } as const;

export const TagImageBody = z.strictObject({
  repo: z.string().trim().min(1, 'repo is required.').max(255),
  tag: z
    .string()
    .trim()
    .max(128)
    .regex(/^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/, 'A tag is letters, digits, _ . and -, not starting with . or -.')
    .default('latest'),
});

export const PushImageBody = z.strictObject({
  /** The tag to push (`repo:tag`); default: every tag of the image in turn. */
  tag: ImageTagName.optional(),
});
export const PushResult = z.object({ pushed: z.array(z.object({ tag: z.string(), digest: z.string().nullable() })) });
export type PushResult = z.infer<typeof PushResult>;

/** Several images into one archive: ids or `repo:tag` references, comma-separated. */
export const ExportManyQuery = z.object({
  ids: z
    .string()
    .min(1, 'Name at least one image.')
    .transform((s) => [
      ...new Set(
        s
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean),
      ),
    ])
    .refine((l) => l.length > 0 && l.length <= 100, 'Name between 1 and 100 images.')
    .refine(
      (l) => l.every((v) => ImageIdParams.shape.id.safeParse(v).success),
      'Every name is an image id or reference.',
    ),
});

export const LoadResult = z.object({
  /** What the archive held: `repo:tag` names, or `sha256:` ids of untagged images. */
  loaded: z.array(z.string()),
  images: z.array(ImageSummary),
});
export type LoadResult = z.infer<typeof LoadResult>;

const TarFile = z.unknown().describe('application/x-tar');
const SSE_NOTE =
  'Send `Accept: text/event-stream` to follow it: `progress` events (PullProgress), then `done` (the JSON answer) or `error` ({detail, code}).';

export const imageBuildApi = {
  build: defineRoute({
    method: 'POST',
    role: 'operator',
    path: '/api/resources/images/build',
    scope: 'environment',
    tag: 'images',
    summary:
      'Build an image. Body: BuildImageOptions as JSON, or multipart/form-data with the field `options` (that JSON) first and ' +
      'the file `context` (.tar, .tar.gz or .zip) after it, streamed to the engine. With `Accept: text/event-stream` the ' +
      'build output comes as `output` events, then `done` (BuildResult) or `error`; closing the stream cancels the build.',
    response: BuildResult,
  }),
  tag: defineRoute({
    method: 'POST',
    role: 'operator',
    path: '/api/resources/images/{id}/tag',
    scope: 'environment',
    tag: 'images',
    summary: 'Give the image one more name `repo:tag` (moving that tag if another image had it)',
    params: ImageIdParams,
    body: TagImageBody,
    response: ImageDetail,
  }),
  push: defineRoute({
    method: 'POST',
    role: 'operator',
    path: '/api/resources/images/{id}/push',
    scope: 'environment',
    tag: 'images',
    summary: `Push a tag of the image (or each of its tags) to its registry, with the registry credential for its host. ${SSE_NOTE}`,
    params: ImageIdParams,
    body: PushImageBody,
    response: PushResult,
  }),
  export: defineRoute({
    method: 'GET',
    role: 'operator',
    path: '/api/resources/images/{id}/export',
    scope: 'environment',
    tag: 'images',
    audited: true,
    summary: 'The image (with its tags) as a `docker save` .tar, streamed',
    params: ImageIdParams,
    response: TarFile,
  }),
  exportMany: defineRoute({
    method: 'GET',
    role: 'operator',
    path: '/api/resources/images/batch/export',
    scope: 'environment',
    tag: 'images',
    audited: true,
    summary: 'Several images in one `docker save` .tar, streamed (`?ids=a,b`)',
    querystring: ExportManyQuery,
    response: TarFile,
  }),
  load: defineRoute({
    method: 'POST',
    role: 'operator',
    path: '/api/resources/images/load',
    scope: 'environment',
    tag: 'images',
    summary: `Load images from a \`docker save\` .tar (or .tar.gz): the request body is the file (application/octet-stream), streamed to the engine. ${SSE_NOTE}`,
    response: LoadResult,
  }),
};
