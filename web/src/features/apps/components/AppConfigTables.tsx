import { Code } from '@mantine/core';
import type { App } from '@berth/contract';
import type { Column } from '../../../components/DataTable';
import { envRows, labelRows } from '../model';
import { KeyValueTable } from '../../../components/KeyValueTable';
import { EnvValuesNote } from '../../../components/RoleGate';
import { Section } from '../../../components/Section';

type Env = { name: string; value: string };
type Label = { label: string; value: string };

const mono = (text: string) => (
  <Code bg="transparent" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
    {text}
  </Code>
);

const ENV_COLUMNS: Column<Env>[] = [
  { key: 'name', header: 'Name', sortable: true, render: (e) => mono(e.name) },
  { key: 'value', header: 'Value', render: (e) => mono(e.value) },
];

const LABEL_COLUMNS: Column<Label>[] = [
  { key: 'label', header: 'Label', sortable: true, render: (l) => mono(l.label) },
  { key: 'value', header: 'Value', render: (l) => mono(l.value) },
];

export function AppEnvironment({ app }: { app: App }) {
  return (
    <Section title="Environment">
      <EnvValuesNote />
      <KeyValueTable
        label="Environment"
        rows={envRows(app.Config.Env)}
        columns={ENV_COLUMNS}
        rowKey={(e) => `${e.name}=${e.value}`}
        emptyText="No environment variables."
      />
    </Section>
  );
}

export function AppLabels({ app }: { app: App }) {
  return (
    <Section title="Labels">
      <KeyValueTable
        label="Labels"
        rows={labelRows(app.Config.Labels)}
        columns={LABEL_COLUMNS}
        rowKey={(l) => l.label}
        emptyText="No labels."
      />
    </Section>
  );
}
