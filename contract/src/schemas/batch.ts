import { z } from 'zod';

/** At most this many items per batch request. */
export const BATCH_MAX_ITEMS = 200;

/**
 * The outcome of one item of a batch: `status` is the HTTP status the single-item request would
 * have answered (200 when it worked), `code` and `detail` say why it did not.
 */
export const BatchItemResult = z.object({
  name: z.string(),
  ok: z.boolean(),
  status: z.number().int(),
  code: z.string().optional(),
  detail: z.string().optional(),
});
export type BatchItemResult = z.infer<typeof BatchItemResult>;

/** Item names of a batch: each is checked on its own, so one bad name fails only its own result. */
export const BatchNames = z
  .array(z.string().min(1, 'A name is empty.').max(255, 'A name is at most 255 characters.'))
  .min(1, 'Name at least one item.')
  .max(BATCH_MAX_ITEMS, `At most ${BATCH_MAX_ITEMS} items per batch.`);

/** Removing images, volumes or networks: by `ids` or `names` (the same thing for the engine), exactly one of them. */
export const RemoveBatchBody = z
  .strictObject({
    action: z.literal('remove', { error: () => 'The only batch action here is remove.' }),
    ids: BatchNames.optional(),
    names: BatchNames.optional(),
    /** Images only: also remove an image that stopped containers use (a running container's image is always kept). */
    force: z.boolean().optional(),
  })
  .refine((b) => (b.ids === undefined) !== (b.names === undefined), {
    message: 'Send either ids or names.',
    path: ['ids'],
  });
export type RemoveBatchBody = z.infer<typeof RemoveBatchBody>;

/** The items a remove batch names. */
export const removeBatchItems = (body: RemoveBatchBody): string[] => body.ids ?? body.names ?? [];
