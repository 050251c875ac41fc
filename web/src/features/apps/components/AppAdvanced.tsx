import { Badge, Code, Group, Tabs } from '@mantine/core';
import type { App } from '@berth/contract';
import type { Column } from '../../../components/DataTable';
import { capabilitiesOf, commandOf, devicesOf, sysctlsOf } from '../model';
import { KeyValueTable } from '../../../components/KeyValueTable';
import { Section } from '../../../components/Section';

type Device = ReturnType<typeof devicesOf>[number];
type Sysctl = ReturnType<typeof sysctlsOf>[number];

const DEVICE_COLUMNS: Column<Device>[] = [
  { key: 'host', header: 'Host' },
  { key: 'container', header: 'Container' },
  { key: 'permissions', header: 'Permissions' },
];
const SYSCTL_COLUMNS: Column<Sysctl>[] = [
  { key: 'name', header: 'Name' },
  { key: 'value', header: 'Value' },
];

/** Advanced: Command, Devices, Sysctls, Capabilities, each only when the app has it. */
export function AppAdvanced({ app }: { app: App }) {
  const command = commandOf(app);
  const devices = devicesOf(app);
  const sysctls = sysctlsOf(app);
  const caps = capabilitiesOf(app);
  const tabs = [
    command.length > 0 && {
      value: 'command',
      label: 'Command',
      body: <Code block>{command.map((arg) => (/\s/.test(arg) ? JSON.stringify(arg) : arg)).join(' ')}</Code>,
    },
    devices.length > 0 && {
      value: 'devices',
      label: 'Devices',
      body: (
        <KeyValueTable
          label="Devices"
          rows={devices}
          columns={DEVICE_COLUMNS}
          rowKey={(d) => `${d.host}|${d.container}`}
        />
      ),
    },
    sysctls.length > 0 && {
      value: 'sysctls',
      label: 'Sysctls',
      body: <KeyValueTable label="Sysctls" rows={sysctls} columns={SYSCTL_COLUMNS} rowKey={(s) => s.name} />,
    },
    caps.length > 0 && {
      value: 'capabilities',
      label: 'Capabilities',
      body: (
        <Group gap={6}>
          {caps.map((c) => (
            <Badge key={c} variant="light" tt="none">
              {c}
            </Badge>
          ))}
        </Group>
      ),
    },
  ].filter((t) => t !== false);
  if (tabs.length === 0) return null;
  return (
    <Section title="Advanced">
      <Tabs defaultValue={tabs[0]!.value}>
        <Tabs.List>
          {tabs.map((t) => (
            <Tabs.Tab key={t.value} value={t.value}>
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {tabs.map((t) => (
          <Tabs.Panel key={t.value} value={t.value} pt="sm">
            {t.body}
          </Tabs.Panel>
        ))}
      </Tabs>
    </Section>
  );
}
