import { Alert, Card, Loader, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { errorMessage } from '../../../lib/notify';
import { serverInfoQuery } from '../api';

/** Berth's version, the engine and compose CLI it uses, its folders and whether sign-in is on. */
export function ServerInfoCard() {
  const info = useQuery(serverInfoQuery());
  if (info.isLoading) return <Loader aria-label="Loading server info" />;
  if (!info.data) return <Alert color="red">{errorMessage(info.error)}</Alert>;
  const { version, engine, compose, dataDir, composeDir, authDisabled } = info.data;
  const rows: [string, string][] = [
    ['Berth version', version],
    [
      'Docker engine',
      engine.reachable ? `${engine.version ?? '?'} (API ${engine.apiVersion ?? '?'})` : 'not reachable',
    ],
    ['Compose CLI', compose.found ? `${compose.command ?? ''} ${compose.version ?? ''}`.trim() : 'not found'],
    ['Data folder', dataDir],
    ['Compose projects folder', composeDir],
    ['Authentication', authDisabled ? 'disabled' : 'enabled'],
  ];
  return (
    <Card withBorder style={{ background: 'var(--berth-surface)' }}>
      <Title order={3} size="h5" mb="sm">
        Server Info
      </Title>
      <Table aria-label="Server info" withRowBorders={false} verticalSpacing={4}>
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w={{ base: 110, sm: 220 }} style={{ verticalAlign: 'top' }}>
                {label}
              </Table.Th>
              <Table.Td>
                <Text
                  size="sm"
                  ff={label.includes('folder') ? 'monospace' : undefined}
                  style={{ overflowWrap: 'anywhere' }}
                >
                  {value}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}
