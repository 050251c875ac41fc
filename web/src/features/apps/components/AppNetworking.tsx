import { Anchor, Tabs, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { appChangesApi, type App } from '@berth/contract';
import { useCan } from '../../../lib/session';
import { NetworkConnect, disconnectColumn } from './AppNetworkLinks';
import type { Column } from '../../../components/DataTable';
import { isRunning, networkRows, portRows, type NetworkRow, type PortRow } from '../model';
import { KeyValueTable } from '../../../components/KeyValueTable';
import { NotRunning } from './NotRunning';
import { Section } from '../../../components/Section';

const PORT_COLUMNS: Column<PortRow>[] = [
  { key: 'containerPort', header: 'Container Port' },
  { key: 'proto', header: 'Protocol' },
  { key: 'hostIp', header: 'Host IP', render: (p) => p.hostIp || (p.hostPort ? '0.0.0.0' : '-') },
  {
    key: 'hostPort',
    header: 'Host Port',
    render: (p) =>
      p.href ? (
        <Anchor href={p.href} target="_blank" rel="noopener noreferrer" size="sm">
          {p.hostPort}
        </Anchor>
      ) : (
        <Text size="sm" c="dimmed">
          not published
        </Text>
      ),
  },
  { key: 'label', header: 'Label', render: (p) => p.label ?? '-' },
];

const NETWORK_COLUMNS: Column<NetworkRow>[] = [
  {
    key: 'name',
    header: 'Network',
    render: (n) => (
      <Anchor component={Link} to={`/resources/networks/${encodeURIComponent(n.networkId ?? n.name)}`} size="sm">
        {n.name}
      </Anchor>
    ),
  },
  { key: 'ip', header: 'IP Address', render: (n) => n.ip ?? '-' },
  { key: 'gateway', header: 'Gateway', render: (n) => n.gateway ?? '-' },
];

/** Networking: Ports (only while running) and Networks. */
export function AppNetworking({ app }: { app: App }) {
  const ports = portRows(app.ports, app.Config.Labels, window.location.hostname);
  const canChange = useCan(appChangesApi.connect);
  return (
    <Section title="Networking">
      <Tabs defaultValue="ports">
        <Tabs.List>
          <Tabs.Tab value="ports">Ports</Tabs.Tab>
          <Tabs.Tab value="networks">Networks</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="ports" pt="sm">
          {isRunning(app) ? (
            <KeyValueTable
              label="Ports"
              rows={ports}
              columns={PORT_COLUMNS}
              rowKey={(p) => `${p.hostIp}|${p.hostPort}|${p.containerPort}/${p.proto}`}
              emptyText="No ports."
            />
          ) : (
            <NotRunning what="ports" />
          )}
        </Tabs.Panel>
        <Tabs.Panel value="networks" pt="sm">
          <KeyValueTable
            label="Networks"
            rows={networkRows(app)}
            columns={canChange ? [...NETWORK_COLUMNS, disconnectColumn(app.name)] : NETWORK_COLUMNS}
            rowKey={(n) => n.name}
            emptyText="Not attached to any network."
          />
          {canChange && <NetworkConnect app={app} />}
        </Tabs.Panel>
      </Tabs>
    </Section>
  );
}
