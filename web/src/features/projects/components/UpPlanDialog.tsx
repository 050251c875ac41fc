import type { ReactNode } from 'react';
import { List, Stack, Text } from '@mantine/core';
import type { ProjectPlan } from '@berth/contract';
import { ConfirmDialog } from '../../../components/ConfirmDialog';

/** Whether a plan holds anything the user should see before `up` (a first start of a fresh project does not). */
export function planNeedsConfirmation(plan: ProjectPlan): boolean {
  return (
    plan.services.some((s) => s.action === 'recreate' || s.action === 'inactive' || s.pull) ||
    plan.orphans.length > 0 ||
    plan.port_conflicts.length > 0 ||
    plan.missing_binds.length > 0
  );
}

function Section({ title, items }: { title: string; items: string[] }) {
  if (items.length === 0) return null;
  return (
    <Stack gap={2}>
      <Text fw={600} size="sm">
        {title}
      </Text>
      <List size="sm">
        {items.map((item) => (
          <List.Item key={item}>{item}</List.Item>
        ))}
      </List>
    </Stack>
  );
}

/** The deploy plan, shown for confirmation before `up` on a project whose file changed or whose start would clash. */
export function UpPlanDialog({
  name,
  plan,
  loading,
  onConfirm,
  onCancel,
  title,
  confirmLabel = 'Up',
  children,
}: {
  name: string;
  plan: ProjectPlan | null;
  /** Another action than a plain up (a rollback): its title, button and words above the plan. */
  title?: string;
  confirmLabel?: string;
  children?: ReactNode;
  loading?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const by = (action: string) => (plan?.services ?? []).filter((s) => s.action === action).map((s) => s.name);
  return (
    <ConfirmDialog
      opened={plan !== null}
      title={title ?? `Up ${name}?`}
      confirmLabel={confirmLabel}
      danger={(plan?.port_conflicts.length ?? 0) > 0}
      loading={loading}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      {plan && (
        <Stack gap="sm">
          {children}
          <Section title="Created" items={by('create')} />
          <Section title="Recreated (their containers are replaced)" items={by('recreate')} />
          <Section
            title={`Not started: no active profile (${plan.active_profiles.length ? `active: ${plan.active_profiles.join(', ')}` : 'COMPOSE_PROFILES is not set'})`}
            items={plan.services
              .filter((s) => s.action === 'inactive')
              .map((s) => `${s.name} (profiles: ${s.profiles.join(', ')})`)}
          />
          <Section
            title="Images pulled first"
            items={plan.services.filter((s) => s.pull).map((s) => `${s.image ?? ''} (${s.name})`)}
          />
          <Section
            title="Left running but no longer in the file"
            items={plan.orphans.map((o) => `${o.name} (${o.service})`)}
          />
          <Section
            title="Host ports already taken — up will fail for these"
            items={plan.port_conflicts.map((c) => `${c.port} of ${c.service}, held by ${c.used_by}`)}
          />
          <Section
            title="Bind paths that do not exist (docker creates them empty, owned by root)"
            items={plan.missing_binds.map((b) => `${b.path} (${b.service})`)}
          />
        </Stack>
      )}
    </ConfirmDialog>
  );
}
