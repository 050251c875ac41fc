import { useState } from 'react';
import { Accordion } from '@mantine/core';
import type { ServiceForm } from '../form-model';
import { ResourcesFields, RestartFields, UpdateFields } from './ServicePolicies';
import { ServiceMounts } from './ServiceMounts';

interface Props {
  form: ServiceForm;
  set: <K extends keyof ServiceForm>(key: K, value: ServiceForm[K]) => void;
  errorFor: (path: string) => string | undefined;
  /** Paths with an error now: their sections open so the message is seen. */
  errorPaths: string[];
}

/** The API field each section edits (its errors' prefix). */
const SECTIONS = {
  mounts: 'mounts',
  resources: 'resources',
  restart: 'restartPolicy',
  update: 'updatePolicy',
} as const;

const limits = (f: ServiceForm) => {
  const r = f.resources;
  const parts = [r.cpuLimit !== '' && `${r.cpuLimit} CPU`, r.memoryLimitMiB !== '' && `${r.memoryLimitMiB} MiB`].filter(
    Boolean,
  );
  return parts.length ? `limit ${parts.join(', ')}` : 'no limits';
};

/** Mounts, resources, restart and update policies: collapsed until wanted (or holding an error). */
export function ServiceFormSections({ form, set, errorFor, errorPaths }: Props) {
  const [open, setOpen] = useState<string[]>([]);
  const withErrors = Object.entries(SECTIONS)
    .filter(([, api]) => errorPaths.some((p) => p === api || p.startsWith(`${api}.`)))
    .map(([key]) => key);
  const value = [...new Set([...open, ...withErrors])];
  return (
    <Accordion multiple variant="separated" value={value} onChange={setOpen}>
      <Accordion.Item value="mounts">
        <Accordion.Control>{`Mounts (${form.mounts.length})`}</Accordion.Control>
        <Accordion.Panel>
          <ServiceMounts mounts={form.mounts} onChange={(m) => set('mounts', m)} errorFor={errorFor} />
        </Accordion.Panel>
      </Accordion.Item>
      <Accordion.Item value="resources">
        <Accordion.Control>{`Resources (${limits(form)})`}</Accordion.Control>
        <Accordion.Panel>
          <ResourcesFields value={form.resources} onChange={(v) => set('resources', v)} errorFor={errorFor} />
        </Accordion.Panel>
      </Accordion.Item>
      <Accordion.Item value="restart">
        <Accordion.Control>{`Restart policy (${form.restart.condition})`}</Accordion.Control>
        <Accordion.Panel>
          <RestartFields value={form.restart} onChange={(v) => set('restart', v)} errorFor={errorFor} />
        </Accordion.Panel>
      </Accordion.Item>
      <Accordion.Item value="update">
        <Accordion.Control>{`Update policy (${form.update.parallelism || 'all'} at a time, ${form.update.order})`}</Accordion.Control>
        <Accordion.Panel>
          <UpdateFields value={form.update} onChange={(v) => set('update', v)} errorFor={errorFor} />
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
