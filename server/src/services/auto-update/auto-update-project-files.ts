import fs from 'node:fs/promises';
import type { AutoUpdateItem } from '@berth/contract';
import type { Uses } from '../../context';
import { setServiceImages } from '../../compose/image-edit';
import { writeFileAtomic } from '../../lib/atomic-write';
import { checkImageUpdate } from '../images/images-update';

/** Builds one service's run result. */
export type ItemOf = (
  service: string,
  result: AutoUpdateItem['result'],
  reason: string | null,
  from?: string | null,
  to?: string | null,
  toTag?: string | null,
) => AutoUpdateItem;

/**
 * Changes the project file's `image:` of each moved service to its newer tag (`forward`) or back
 * to the tag it had (`back`), atomically, the rest of the file as it was.
 */
export async function moveImages(
  file: string,
  moves: { service: string; ref: string; move: { ref: string } | null }[],
  direction: 'forward' | 'back',
): Promise<void> {
  const changes = Object.fromEntries(
    moves.flatMap((m) =>
      m.move
        ? [[m.service, direction === 'forward' ? { from: m.ref, to: m.move.ref } : { from: m.move.ref, to: m.ref }]]
        : [],
    ),
  );
  if (Object.keys(changes).length === 0) return;
  const out = setServiceImages(await fs.readFile(file, 'utf8'), changes);
  if (out.left.length > 0)
    throw new Error(
      `The project file no longer names the image of ${out.left.join(', ')} as it did; it was left alone.`,
    );
  await writeFileAtomic(file, out.content);
}

/** Each service's running image against its registry, for a project Berth cannot update: at most update_available. */
export async function checkOnly(
  ctx: Uses<'docker' | 'registryAuth'>,
  services: string[],
  states: { name: string; ids: string[] }[],
  item: ItemOf,
): Promise<AutoUpdateItem[]> {
  const why =
    "Berth cannot read this project's compose file here (or it is made of several files), so it cannot update it.";
  const items: AutoUpdateItem[] = [];
  for (const service of services) {
    const id = states.find((s) => s.name === service)?.ids[0];
    if (!id) {
      items.push(item(service, 'up_to_date', 'The service has no container.'));
      continue;
    }
    const c = await ctx.docker.inspectContainer(id);
    const check = await checkImageUpdate(ctx.docker, c.Config.Image, {
      imageId: c.Image,
      auth: ctx.registryAuth?.(c.Config.Image),
    });
    const [from, to] = [check.localDigests[0] ?? null, check.remoteDigest];
    items.push(
      check.isUpdatable
        ? item(service, 'update_available', `A newer image is available. ${why}`, from, to)
        : item(service, 'up_to_date', check.reason ? `${check.reason} ${why}` : why, from, to),
    );
  }
  return items;
}
