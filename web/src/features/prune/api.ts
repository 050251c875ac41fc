import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PRUNE_KEYS, pruneApi, type PruneResource, type PruneResult } from '@berth/contract';
import { api } from '../../lib/api-client';
import { formatBytes } from '../../lib/format';

/** What one of each kind is called in a sentence. */
const NOUNS: Record<PruneResource, string> = {
  images: 'image',
  networks: 'network',
  volumes: 'volume',
  containers: 'container',
};

/** '1 image' / '3 images'. */
export function countOf(resource: PruneResource, n: number): string {
  return `${n} ${NOUNS[resource]}${n === 1 ? '' : 's'}`;
}

/**
 * The spec's message '{count} {resource key}. Space Reclaimed: {size}' with the count and key read
 * as words ("3 images deleted", not "3 ImagesDeleted").
 */
export function pruneMessage(resource: PruneResource, result: PruneResult): string {
  const removed = result[PRUNE_KEYS[resource]] ?? [];
  return `${countOf(resource, removed.length)} deleted. Space Reclaimed: ${formatBytes(result.SpaceReclaimed)}`;
}

/** What a prune would remove now; always asked afresh (it is shown right before acting). */
export function usePrunePreview(resource: PruneResource | null) {
  return useQuery({
    queryKey: ['prune-preview', resource],
    queryFn: ({ signal }) => api(pruneApi.preview, { params: { resource: resource as PruneResource }, signal }),
    enabled: resource !== null,
    staleTime: 0,
    gcTime: 0,
  });
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
