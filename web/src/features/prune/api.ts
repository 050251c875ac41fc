import { useMutation, useQueryClient } from '@tanstack/react-query';
import { PRUNE_KEYS, pruneApi, type PruneResource, type PruneResult } from '@berth/contract';
import { api } from '../../lib/api-client';
import { formatBytes } from '../../lib/format';

/** Spec message: '{count} {resource key}. Space Reclaimed: {size}'. */
export function pruneMessage(resource: PruneResource, result: PruneResult): string {
  const key = PRUNE_KEYS[resource];
  const removed = result[key] ?? [];
  return `${removed.length} ${key}. Space Reclaimed: ${formatBytes(result.SpaceReclaimed)}`;
}

/** What each prune can change in cached lists. */
const TOUCHES: Record<PruneResource, string[]> = {
  images: ['images'],
  networks: ['networks'],
  volumes: ['volumes'],
  containers: ['apps', 'projects', 'images', 'volumes', 'networks'],
};

export function usePrune() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (resource: PruneResource) => api(pruneApi.prune, { params: { resource } }),
    onSuccess: (_result, resource) => {
      for (const key of TOUCHES[resource]) void queryClient.invalidateQueries({ queryKey: [key] });
    },
  });
}
