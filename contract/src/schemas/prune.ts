import { z } from 'zod';
import { defineRoute } from '../route';

export const PRUNE_RESOURCES = ['images', 'networks', 'volumes', 'containers'] as const;
export type PruneResource = (typeof PRUNE_RESOURCES)[number];

/** The key of the removed list in each prune result (the engine's own name for it). */
export const PRUNE_KEYS = {
  images: 'ImagesDeleted',
  networks: 'NetworksDeleted',
  volumes: 'VolumesDeleted',
  containers: 'ContainersDeleted',
} as const satisfies Record<PruneResource, string>;

export const PruneParams = z.object({
  resource: z.enum(PRUNE_RESOURCES, { message: `Unknown resource; use one of ${PRUNE_RESOURCES.join(', ')}.` }),
});

export const PruneQuery = z.object({
  /** Only prune things carrying this label: `key` or `key=value` (like `docker ... prune --filter label=`). */
  label: z
    .string()
    .trim()
    .max(255)
    .regex(/^[^\s=]+(=\S*)?$/, 'Use key or key=value.')
    .optional(),
});

export const PrunedImage = z.object({ Untagged: z.string().optional(), Deleted: z.string().optional() });

/**
 * What a prune removed: exactly one list (keyed as in PRUNE_KEYS, always an array, first key) and
 * SpaceReclaimed in bytes (0 for networks).
 */
export const PruneResult = z.object({
  ImagesDeleted: z.array(PrunedImage).optional(),
  NetworksDeleted: z.array(z.string()).optional(),
  VolumesDeleted: z.array(z.string()).optional(),
  ContainersDeleted: z.array(z.string()).optional(),
  SpaceReclaimed: z.number(),
});
export type PruneResult = z.infer<typeof PruneResult>;

/** One thing a prune would remove: its id, a name to show and its size in bytes (null when the engine cannot tell). */
export const PruneCandidate = z.object({ id: z.string(), name: z.string(), size: z.number().nullable() });
export type PruneCandidate = z.infer<typeof PruneCandidate>;

/** What a prune would remove now and the space it would free (bytes; 0 for networks). */
export const PrunePreview = z.object({
  items: z.array(PruneCandidate),
  SpaceReclaimable: z.number(),
});
export type PrunePreview = z.infer<typeof PrunePreview>;

export const pruneApi = {
  preview: defineRoute({
    method: 'GET',
    role: 'admin',
    path: '/api/settings/prune/{resource}/preview',
    scope: 'environment',
    tag: 'prune',
    summary:
      'What a prune of this kind would remove now (same rules and label filter as the prune) and the space it would free; changes nothing',
    params: PruneParams,
    querystring: PruneQuery,
    response: PrunePreview,
  }),
  prune: defineRoute({
    method: 'POST',
    role: 'admin',
    path: '/api/settings/prune/{resource}',
    scope: 'environment',
    tag: 'prune',
    summary:
      'Remove unused things: images = dangling images (untagged, unused); networks = user networks with no running container attached (the engine rule); ' +
      'volumes = every volume no container uses (named and anonymous); containers = every stopped container',
    alsoMethods: ['GET'],
    params: PruneParams,
    querystring: PruneQuery,
    response: PruneResult,
  }),
};
