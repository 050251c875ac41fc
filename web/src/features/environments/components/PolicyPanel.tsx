import { useEffect, useState } from 'react';
import { Alert, Button, Card, Group, SegmentedControl, Stack, Switch, TagsInput, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { POLICY_RULE_INFO, POLICY_RULES, policyApi, type EnvironmentPolicy, type PolicyRule } from '@berth/contract';
import { EditableBy } from '../../../components/RoleGate';
import { api } from '../../../lib/api-client';
import { errorMessage, notifySuccess } from '../../../lib/notify';
import { policyQuery } from '../../../lib/policy';
import { queryKeys } from '../../../lib/query-keys';

type SwitchRule = Exclude<PolicyRule, 'bind_mounts'>;
const SWITCHES = POLICY_RULES.filter((r): r is SwitchRule => r !== 'bind_mounts');

function RuleRow({ rule, children }: { rule: PolicyRule; children: React.ReactNode }) {
  const { label, risk } = POLICY_RULE_INFO[rule];
  return (
    <Group justify="space-between" align="flex-start" wrap="nowrap" data-rule={rule}>
      <div>
        <Text fw={500}>
          {label}{' '}
          <Text span c="dimmed" size="xs" ff="monospace">
            {rule}
          </Text>
        </Text>
        <Text size="sm" c="dimmed">
          {risk}
        </Text>
      </div>
      {children}
    </Group>
  );
}

/** Settings → Environments → {env} → Policy: what operators may put into containers on one environment. */
export function PolicyPanel({ env }: { env: string }) {
  const queryClient = useQueryClient();
  const answer = useQuery(policyQuery(env));
  const [draft, setDraft] = useState<EnvironmentPolicy | null>(null);
  useEffect(() => {
    if (answer.data) setDraft(answer.data.policy);
  }, [answer.data]);
  const save = useMutation({
    mutationFn: (body: EnvironmentPolicy) => api(policyApi.put, { params: { env }, body }),
    onSuccess: (next) => {
      queryClient.setQueryData(queryKeys.policy(env), next);
      notifySuccess(`The policy of ${env} is saved.`);
    },
  });
  if (answer.error) return <Alert color="red">{errorMessage(answer.error)}</Alert>;
  if (!draft || !answer.data) return <Text c="dimmed">Loading the policy…</Text>;
  const set = <K extends keyof EnvironmentPolicy>(key: K, value: EnvironmentPolicy[K]) =>
    setDraft({ ...draft, [key]: value });

  return (
    <Stack>
      <Title order={3}>Policy of {env}</Title>
      <Alert color="blue" title="Admins are never restricted">
        These rules bind operators (viewers make nothing; &quot;Viewers browse files&quot; is the one rule for viewers,
        who otherwise never read files, as they never read environment values). Docker itself keeps no one apart: an
        operator who may bind any host path, run privileged or join the host&apos;s namespaces is root on this host.
        With bind mounts set to &quot;allow&quot;, an operator is root on {env}.
      </Alert>
      <EditableBy route={policyApi.put}>
        <Card withBorder>
          <Stack>
            <RuleRow rule="bind_mounts">
              <SegmentedControl
                aria-label="Bind mounts"
                value={draft.bind_mounts}
                onChange={(v) => set('bind_mounts', v as EnvironmentPolicy['bind_mounts'])}
                data={[
                  { value: 'deny', label: 'Deny' },
                  { value: 'allowlist', label: 'Allowlist' },
                  { value: 'allow', label: 'Allow' },
                ]}
              />
            </RuleRow>
            {draft.bind_mounts === 'allowlist' && (
              <TagsInput
                label="Allowed host paths"
                description="Operators may mount these folders and what is inside them. Paths inside a compose project's own folder (./data) are always allowed."
                placeholder="/srv/media"
                value={draft.bind_allowlist}
                onChange={(v) => set('bind_allowlist', v)}
              />
            )}
            <div>
              <Text size="sm" fw={500}>
                Never mounted by an operator, whatever the rules (nor a folder that holds one):
              </Text>
              <Text size="xs" c="dimmed" ff="monospace">
                {answer.data.always_refused.map((p) => p.path).join('  ')}
              </Text>
            </div>
            {SWITCHES.map((rule) => (
              <Stack key={rule} gap={6}>
                <RuleRow rule={rule}>
                  <Switch
                    aria-label={`Allow ${POLICY_RULE_INFO[rule].label}`}
                    label="Allow"
                    checked={draft[rule] === 'allow'}
                    onChange={(e) => set(rule, e.currentTarget.checked ? 'allow' : 'deny')}
                  />
                </RuleRow>
                {rule === 'cap_add' && draft.cap_add === 'deny' && (
                  <TagsInput
                    label="Capabilities operators may still add"
                    placeholder="NET_ADMIN"
                    value={draft.cap_add_allowlist}
                    onChange={(v) =>
                      set(
                        'cap_add_allowlist',
                        v.map((c) => c.toUpperCase().replace(/^CAP_/, '')),
                      )
                    }
                  />
                )}
              </Stack>
            ))}
          </Stack>
        </Card>
        <Group mt="md">
          <Button onClick={() => save.mutate(draft)} loading={save.isPending}>
            Save policy
          </Button>
          {answer.data.updated_at && (
            <Text size="xs" c="dimmed">
              Last changed {new Date(answer.data.updated_at).toLocaleString()} by {answer.data.updated_by}
            </Text>
          )}
        </Group>
      </EditableBy>
    </Stack>
  );
}
