import { useState } from 'react';
import { Button, Group, Select, TextInput } from '@mantine/core';
import { IconPlugConnected, IconPlugConnectedX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { App } from '@berth/contract';
import type { Column } from '../../../components/DataTable';
import { networksQuery } from '../../networks';
import { useNetworkLink } from '../api/changes';
import type { NetworkRow } from '../model';
import { useEnvironment } from '../../../lib/environment';

/** Networks a container cannot join or leave live (its own stack of network modes). */
const FIXED = new Set(['host', 'none']);

function DisconnectButton({ app, network }: { app: string; network: string }) {
  const link = useNetworkLink(app);
  return (
    <Button
      size="compact-xs"
      variant="subtle"
      color="red"
      leftSection={<IconPlugConnectedX size={14} />}
      loading={link.isPending}
      disabled={FIXED.has(network)}
      onClick={() => link.mutate({ network, connect: false })}
    >
      Disconnect
    </Button>
  );
}

/** The networks table's last column: Disconnect, live. */
export const disconnectColumn = (app: string): Column<NetworkRow> => ({
  key: 'actions',
  header: '',
  render: (n) => <DisconnectButton app={app} network={n.name} />,
});

/** Connect the app to another network, live (optionally under aliases). */
export function NetworkConnect({ app }: { app: App }) {
  const { data: networks } = useQuery(networksQuery(useEnvironment()));
  const link = useNetworkLink(app.name);
  const [network, setNetwork] = useState<string | null>(null);
  const [aliases, setAliases] = useState('');
  const joined = new Set(Object.keys(app.NetworkSettings?.Networks ?? {}));
  const options = (networks ?? []).map((n) => n.Name).filter((n) => !joined.has(n) && !FIXED.has(n));
  const connect = () =>
    network &&
    link.mutate(
      { network, connect: true, aliases: aliases.split(/[\s,]+/).filter(Boolean) },
      { onSuccess: () => (setNetwork(null), setAliases('')) },
    );
  return (
    <Group align="flex-end" mt="sm" gap="xs">
      <Select
        label="Connect to network"
        placeholder={options.length ? 'Pick a network' : 'No other network'}
        data={options}
        value={network}
        onChange={setNetwork}
        searchable
        size="xs"
      />
      <TextInput
        label="Aliases (optional)"
        value={aliases}
        onChange={(e) => setAliases(e.currentTarget.value)}
        size="xs"
      />
      <Button
        size="xs"
        leftSection={<IconPlugConnected size={14} />}
        disabled={!network}
        loading={link.isPending}
        onClick={connect}
      >
        Connect
      </Button>
    </Group>
  );
}
