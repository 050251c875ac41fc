import { useCallback } from 'react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  judgePolicy,
  policyApi,
  roleAllows,
  type PolicyAnswer,
  type PolicyFeature,
  type PolicyViolation,
} from '@berth/contract';
import { api } from './api-client';
import { useEnvironment } from './environment';
import { queryKeys } from './query-keys';
import { useSession } from './session';

/** An environment's policy for non-admins (operators may read it, so forms can mark a refused field). */
export const policyQuery = (env: string) =>
  queryOptions({
    queryKey: queryKeys.policy(env),
    queryFn: ({ signal }) => api(policyApi.get, { params: { env }, signal }),
    staleTime: 60_000,
  });

/** The judgement the server will make, run on the same policy: an empty list for an admin. */
export function judgeWith(answer: PolicyAnswer, role: 'operator' | 'viewer', features: readonly PolicyFeature[]) {
  return judgePolicy(
    // Relative paths start at a folder only the server knows; it judges those.
    features.filter((f) => f.rule !== 'bind_mounts' || f.value.startsWith('/')),
    {
      role,
      environment: answer.environment,
      policy: answer.policy,
      protectedPaths: answer.always_refused,
      protectedVolumes: answer.protected_volumes,
      protectedContainers: answer.protected_containers,
    },
  );
}

/**
 * What the current environment's policy refuses of `features` for the signed-in user, before
 * anything is sent (the policy fetched once per environment). Admins are never restricted, and
 * viewers make nothing, so only an operator asks.
 */
export function usePolicyJudge(): (features: readonly PolicyFeature[]) => PolicyViolation[] {
  const env = useEnvironment();
  const { role } = useSession();
  const restricted = role === 'operator';
  const policy = useQuery({ ...policyQuery(env), enabled: restricted && roleAllows(role, policyApi.get.role) });
  const answer = restricted ? policy.data : undefined;
  return useCallback((features) => (answer ? judgeWith(answer, 'operator', features) : []), [answer]);
}
