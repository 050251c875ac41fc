import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PRUNE_KEYS, pruneApi, type PruneResource, type PruneResult } from '@berth/contract';
import { api } from '../../lib/api-client';
import { formatBytes } from '../../lib/format';
import { useEnvironment } from '../../lib/environment';
import { queryKeys } from '../../lib/query-keys';

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
  const env = useEnvironment();
  return useQuery({
    queryKey: queryKeys.prune.preview(env, resource),
    queryFn: ({ signal }) => api(pruneApi.preview, { env, params: { resource: resource as PruneResource }, signal }),
    enabled: resource !== null,
    staleTime: 0,
    gcTime: 0,
  });
}

/** What each prune can change in cached lists. */
const TOUCHES: Record<PruneResource, ((env: string) => readonly unknown[])[]> = {
  images: [queryKeys.images.all],
  networks: [queryKeys.networks.all],
  volumes: [queryKeys.volumes.all],
  containers: [
    queryKeys.apps.all,
    queryKeys.projects.all,
    queryKeys.images.all,
    queryKeys.volumes.all,
    queryKeys.networks.all,
  ],
};

export function usePrune() {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (resource: PruneResource) => api(pruneApi.prune, { env, params: { resource } }),
    onSuccess: (_result, resource) => {
      for (const key of TOUCHES[resource]) void queryClient.invalidateQueries({ queryKey: key(env) });
    },
  });
}
