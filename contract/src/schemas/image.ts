import { z } from 'zod';
import { defineRoute } from '../route';
import { BatchItemResult, RemoveBatchBody } from './batch';
import { parseImageReference } from './image-reference';

/**
 * One image as listed; engine fields pass through, `Created` is ISO 8601, `inUse` counts containers
 * (running or stopped), `usedTags` are the tags those containers were made from. `SharedSize` is the
 * part of `Size` in layers other images use too; null when the engine does not count it (Docker API
 * before 1.42) or when one image is read.
 */
export const ImageSummary = z.looseObject({
  Id: z.string(),
  RepoTags: z.array(z.string()),
  RepoDigests: z.array(z.string()),
  Created: z.string(),
  Size: z.number(),
  SharedSize: z.number().nullable().optional(),
  VirtualSize: z.number(),
  Labels: z.record(z.string(), z.string()),
  inUse: z.number().int(),
  usedTags: z.array(z.string()),
});
export type ImageSummary = z.infer<typeof ImageSummary>;

/** The image's run configuration (from the image config; older engines' ContainerConfig as a fallback). */
export const ImageContainerConfig = z.looseObject({
  Cmd: z.array(z.string()).nullable(),
  Entrypoint: z.array(z.string()).nullable(),
  ExposedPorts: z.record(z.string(), z.unknown()).nullable(),
  Labels: z.record(z.string(), z.string()).nullable(),
  Env: z.array(z.string()).nullable(),
});
export type ImageContainerConfig = z.infer<typeof ImageContainerConfig>;

export const ImageDetail = ImageSummary.extend({
  Architecture: z.string(),
  Os: z.string(),
  ContainerConfig: ImageContainerConfig,
});
export type ImageDetail = z.infer<typeof ImageDetail>;

/** A full image reference: `[registry[:port]/]repository[:tag][@digest]`. */
export const ImageReferenceString = z
  .string()
  .trim()
  .superRefine((value, ctx) => {
    const parsed = parseImageReference(value);
    if ('error' in parsed) ctx.addIssue({ code: 'custom', message: parsed.error });
  });

export const PullImageBody = z.strictObject({ image: ImageReferenceString });

/** An image id (`sha256:<hex>`, or a hex prefix of at least 4) or a reference such as `repo:tag`. */
export const ImageIdParams = z.object({
  id: z
    .string()
    .refine(
      (v) => /^(sha256:)?[a-f0-9]{4,64}$/.test(v) || !('error' in parseImageReference(v)),
      'Not an image id or reference.',
    ),
});

/** One tag of an image (`repo:tag`), URL-encoded in the path. */
export const ImageTagParams = ImageIdParams.extend({
  tag: z
    .string()
    .refine(
      (v) => v.includes(':') && !v.includes('@') && !('error' in parseImageReference(v)),
      'Not a tag: expected repository:tag.',
    ),
});

/** One line of the engine's pull progress, as sent in the `progress` event of a streamed pull. */
export const PullProgress = z.object({
  id: z.string().optional(),
  status: z.string(),
  progress: z.string().optional(),
  current: z.number().optional(),
  total: z.number().optional(),
});
export type PullProgress = z.infer<typeof PullProgress>;

const STREAM_NOTE =
  'Send `Accept: text/event-stream` to follow the pull: the reply is a server-sent event stream of `progress` events ' +
  '(PullProgress, one per engine status line), ending with `done` (data: the same JSON body as the plain reply) or ' +
  '`error` (data: {detail, code}). A bad reference or an engine refusal before the pull starts is a plain JSON error either way.';

export const imageApi = {
  list: defineRoute({
    method: 'GET',
    role: 'viewer',
    path: '/api/resources/images/',
    scope: 'environment',
    tag: 'images',
    summary: 'Images (top level) with how many containers use each',
    response: z.array(ImageSummary),
  }),
  pull: defineRoute({
    method: 'POST',
    role: 'operator',
    path: '/api/resources/images/',
    scope: 'environment',
    tag: 'images',
    summary: `Pull an image by reference (tag defaults to latest) and return the image list. ${STREAM_NOTE}`,
    body: PullImageBody,
    response: z.array(ImageSummary),
  }),
  get: defineRoute({
    method: 'GET',
    role: 'viewer',
    path: '/api/resources/images/{id}',
    scope: 'environment',
    tag: 'images',
    summary: 'One image, inspected, with its use count',
    params: ImageIdParams,
    response: ImageDetail,
  }),
  remove: defineRoute({
    method: 'DELETE',
    role: 'operator',
    path: '/api/resources/images/{id}',
    scope: 'environment',
    tag: 'images',
    summary:
      'Remove an image (all its tags) unless a container uses it (409 with the engine reason); returns it as it was',
    params: ImageIdParams,
    response: ImageDetail,
  }),
  batch: defineRoute({
    method: 'POST',
    path: '/api/resources/images/batch',
    scope: 'environment',
    tag: 'images',
    batch: true,
    summary:
      'Remove many images; one result per image (one a container uses is refused unless force, and a running one is always kept) and the image list',
    role: 'operator',
    body: RemoveBatchBody,
    response: z.object({ results: z.array(BatchItemResult), images: z.array(ImageSummary) }),
  }),
  untag: defineRoute({
    method: 'DELETE',
    role: 'operator',
    path: '/api/resources/images/{id}/tags/{tag}',
    scope: 'environment',
    tag: 'images',
    summary:
      'Remove one tag (`repo:tag`) of an image that has several; the image and its other tags stay. 404 if the image has no such tag, 409 if it is the only one (delete the image instead)',
    params: ImageTagParams,
    response: ImageDetail,
  }),
  repull: defineRoute({
    method: 'POST',
    role: 'operator',
    path: '/api/resources/images/{id}/pull',
    scope: 'environment',
    tag: 'images',
    summary: 'Pull the first tag of this image again and return the image that tag now names (409 if it has no tag)',
    alsoMethods: ['GET'],
    params: ImageIdParams,
    response: ImageDetail,
  }),
};
