import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { notificationsApi as n, type ChannelBody, type RuleBody, type RulePatch } from '@berth/contract';
import { api } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';

export const channelsQuery = () =>
  queryOptions({ queryKey: queryKeys.notifications.channels(), queryFn: ({ signal }) => api(n.channels, { signal }) });
export const rulesQuery = () =>
  queryOptions({ queryKey: queryKeys.notifications.rules(), queryFn: ({ signal }) => api(n.rules, { signal }) });
/** Deliveries change in the background (retries), so the list is read again every few seconds. */
export const historyQuery = () =>
  queryOptions({
    queryKey: queryKeys.notifications.history(),
    queryFn: ({ signal }) => api(n.history, { signal, query: { limit: 100 } }),
    refetchInterval: 5000,
  });

/** Channel changes touch the channels; a removed channel also leaves the rules. */
function useNotificationMutation<V, R>(fn: (v: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.notifications.all }),
  });
}

export const useAddChannel = () => useNotificationMutation((body: ChannelBody) => api(n.addChannel, { body }));
export const useEditChannel = () =>
  useNotificationMutation(({ id, patch }: { id: number; patch: Record<string, unknown> }) =>
    api(n.editChannel, { params: { id }, body: patch }),
  );
export const useRemoveChannel = () => useNotificationMutation((id: number) => api(n.removeChannel, { params: { id } }));
export const useTestChannel = () => useNotificationMutation((id: number) => api(n.testChannel, { params: { id } }));
export const useAddRule = () =>
  useNotificationMutation((body: Partial<RuleBody> & Pick<RuleBody, 'event' | 'channels'>) => api(n.addRule, { body }));
export const useEditRule = () =>
  useNotificationMutation(({ id, patch }: { id: number; patch: RulePatch }) =>
    api(n.editRule, { params: { id }, body: patch }),
  );
export const useRemoveRule = () => useNotificationMutation((id: number) => api(n.removeRule, { params: { id } }));
