import { skipToken, useQuery, useQueryClient } from '@tanstack/react-query';
import { ActionStreamEvent, projectApi } from '@berth/contract';
import { buildUrl } from '../../../lib/api-client';
import { useEventStream } from '../../../lib/event-stream';
import { foldOutput, parseActionStream, type ActionOutput, type StreamItem } from '../../../lib/action-stream';
import { queryKeys } from '../../../lib/query-keys';
import { useEnvironment } from '../../../lib/environment';

/**
 * The live output of the project's running compose action (replayed from its start when the
 * page opens mid-action), kept in the query cache. An ended action re-reads the project.
 */
export function useActionOutput(name: string, enabled = true): ActionOutput | undefined {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  useEventStream<StreamItem>(enabled ? buildUrl(projectApi.stream, { env, params: { name } }) : null, {
    event: [ActionStreamEvent.state, ActionStreamEvent.output, ActionStreamEvent.end],
    parse: parseActionStream,
    onBatch: (batch) => {
      queryClient.setQueryData<ActionOutput>(queryKeys.projectsLive.output(env, name), (prev) =>
        foldOutput(prev, batch),
      );
      if (batch.some((i) => i.kind === 'end'))
        void queryClient.invalidateQueries({ queryKey: queryKeys.projects.detail(env, name) });
    },
  });
  return useQuery<ActionOutput>({
    queryKey: queryKeys.projectsLive.output(env, name),
    queryFn: skipToken,
    staleTime: Infinity,
  }).data;
}

/** Hides the finished action's output card until the next action starts. */
export function useDismissOutput(name: string): () => void {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return () =>
    queryClient.setQueryData<ActionOutput>(
      queryKeys.projectsLive.output(env, name),
      (prev) => prev && { ...prev, dismissed: true },
    );
}
