import type { ReactNode } from 'react';
import { Code, Stack, Table, Text } from '@mantine/core';
import type { ComposeService } from '@berth/contract';
import { EnvValuesNote } from '../../../components/RoleGate';
import { commandText, keyValueLines, names, portText, volumeRows } from '../model';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Th w={160} style={{ verticalAlign: 'top' }}>
        {label}
      </Table.Th>
      <Table.Td>{children}</Table.Td>
    </Table.Tr>
  );
}

function Lines({ items }: { items: string[] }) {
  return (
    <Stack gap={2}>
      {items.map((l, i) => (
        <Text key={`${i}-${l}`} size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
          {l}
        </Text>
      ))}
    </Stack>
  );
}

/** Every optional field of a service the spec lists, shown only when the file has it. */
export function ServiceFields({ service }: { service: ComposeService }) {
  const s = service;
  const envFiles =
    s.env_file === undefined
      ? []
      : (Array.isArray(s.env_file) ? s.env_file : [s.env_file]).map((f) => (typeof f === 'string' ? f : f.path));
  const volumes = volumeRows(s.volumes);
  return (
    <Table withRowBorders={false} verticalSpacing={4} aria-label="Service fields">
      <Table.Tbody>
        {s.container_name && <Row label="Container name">{s.container_name}</Row>}
        <Row label="Image">{s.image ?? 'No Image'}</Row>
        {envFiles.length > 0 && (
          <Row label="Env file">
            <Lines items={envFiles} />
          </Row>
        )}
        {s.depends_on && (
          <Row label="Depends on">
            <Lines items={names(s.depends_on)} />
          </Row>
        )}
        {s.restart && <Row label="Restart policy">{s.restart}</Row>}
        {s.read_only !== undefined && <Row label="Read only">{String(s.read_only)}</Row>}
        {s.networks && (
          <Row label="Networks">
            <Lines items={names(s.networks)} />
          </Row>
        )}
        {s.ports && (
          <Row label="Ports">
            <Lines items={s.ports.map(portText)} />
          </Row>
        )}
        {volumes.length > 0 && (
          <Row label="Volumes">
            <Table withTableBorder verticalSpacing={2} fz="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Host</Table.Th>
                  <Table.Th>Container</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {volumes.map((v, i) => (
                  <Table.Tr key={`${i}-${v.host}-${v.container}`}>
                    <Table.Td ff="monospace">{v.host}</Table.Td>
                    <Table.Td ff="monospace">{v.container}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Row>
        )}
        {s.environment && (
          <Row label="Environment">
            <EnvValuesNote />
            <Lines items={keyValueLines(s.environment)} />
          </Row>
        )}
        {s.labels && (
          <Row label="Labels">
            <Lines items={keyValueLines(s.labels)} />
          </Row>
        )}
        {s.command !== undefined && (
          <Row label="Command">
            <Code>{commandText(s.command)}</Code>
          </Row>
        )}
      </Table.Tbody>
    </Table>
  );
}
