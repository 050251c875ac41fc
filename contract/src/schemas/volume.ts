import { z } from 'zod';
import { defineRoute } from '../route';
import { BatchItemResult, RemoveBatchBody } from './batch';

/** Docker's rule for volume names (and container names); also keeps path tricks out of engine URLs. */
export const VOLUME_NAME_PATTERN = /^[a-zA-Z0-9][a-zA-Z0-9_.-]+$/;
export const VolumeName = z
  .string()
  .trim()
  .max(255, 'At most 255 characters.')
  .regex(VOLUME_NAME_PATTERN, 'Use at least 2 characters: letters, digits, _ . - (starting with a letter or digit).');

/** A container that mounts a volume: where, and whether it may write. */
export const VolumeUser = z.object({
  name: z.string(),
  id: z.string(),
  state: z.string(),
  destination: z.string(),
  read_only: z.boolean(),
});
export type VolumeUser = z.infer<typeof VolumeUser>;

/**
 * A volume; engine fields pass through. `Project` is its compose project label; `inUse` counts
 * containers mounting it; `usedBy` names them (only when one volume is read).
 */
export const Volume = z.looseObject({
  Name: z.string(),
  Driver: z.string(),
  Mountpoint: z.string(),
  Scope: z.string(),
  CreatedAt: z.string().nullable(),
  Labels: z.record(z.string(), z.string()),
  Options: z.record(z.string(), z.string()).nullable(),
  Project: z.string().nullable(),
  inUse: z.number().int(),
  usedBy: z.array(VolumeUser).optional(),
});
export type Volume = z.infer<typeof Volume>;

export const CreateVolumeBody = z.strictObject({ name: VolumeName });
export const VolumeNameParams = z.object({ name: VolumeName });

export const volumeApi = {
  list: defineRoute({
    method: 'GET',
    role: 'viewer',
    path: '/api/resources/volumes/',
    scope: 'environment',
    tag: 'volumes',
    summary: 'Volumes with their compose project and use count',
    response: z.array(Volume),
  }),
  create: defineRoute({
    method: 'POST',
    role: 'operator',
    path: '/api/resources/volumes/',
    scope: 'environment',
    tag: 'volumes',
    summary: 'Create a local volume; returns the volume list',
    body: CreateVolumeBody,
    response: z.array(Volume),
  }),
  batch: defineRoute({
    method: 'POST',
    path: '/api/resources/volumes/batch',
    scope: 'environment',
    tag: 'volumes',
    batch: true,
    summary:
      'Remove many volumes; one result per volume (one a container mounts is refused, even with force) and the volume list',
    role: 'operator',
    body: RemoveBatchBody,
    response: z.object({ results: z.array(BatchItemResult), volumes: z.array(Volume) }),
  }),
  get: defineRoute({
    method: 'GET',
    role: 'viewer',
    path: '/api/resources/volumes/{name}',
    scope: 'environment',
    tag: 'volumes',
    summary: 'One volume, inspected, with the containers that mount it (read-only or read-write)',
    params: VolumeNameParams,
    response: Volume,
  }),
  remove: defineRoute({
    method: 'DELETE',
    role: 'operator',
    path: '/api/resources/volumes/{name}',
    scope: 'environment',
    tag: 'volumes',
    summary: 'Remove a volume (409 with the engine reason when a container uses it); returns it as it was',
    params: VolumeNameParams,
    response: Volume,
  }),
};
