import { Anchor, Button, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import type { TemplateItem } from '@berth/contract';
import { registryPageUrl } from '../registry-link';
import { DeployItemButton } from './DeployItemButton';
import { ItemLogo } from './ItemLogo';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Text size="sm" fw={600} w={110} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="sm" component="div" style={{ wordBreak: 'break-word', whiteSpace: 'pre-wrap' }}>
        {children}
      </Text>
    </Group>
  );
}

function Rows({ title, head, rows }: { title: string; head: string[]; rows: (string | null)[][] }) {
  if (rows.length === 0) return null;
  return (
    <Stack gap={4}>
      <Title order={4} size="h6">
        {title}
      </Title>
      <Table withTableBorder verticalSpacing={4} aria-label={title}>
        <Table.Thead>
          <Table.Tr>
            {head.map((h) => (
              <Table.Th key={h}>{h}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, i) => (
            <Table.Tr key={i}>
              {row.map((cell, j) => (
                <Table.Td key={j}>{cell || '-'}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

/** Every field of one catalogue item, as stored (variables such as !config are shown unsubstituted). */
export function TemplateItemDialog({
  item,
  onClose,
  onDeployStack,
}: {
  item: TemplateItem | null;
  onClose: () => void;
  onDeployStack: (item: TemplateItem) => void;
}) {
  const link = item?.image ? registryPageUrl(item.image) : null;
  return (
    <Modal
      opened={item !== null}
      onClose={onClose}
      size="lg"
      title={
        item && (
          <Group gap="sm">
            <ItemLogo src={item.logo} size={32} />
            <Text fw={600}>{item.title}</Text>
          </Group>
        )
      }
    >
      {item && (
        <Stack gap="sm">
          {item.description && <Text size="sm">{item.description}</Text>}
          {item.notes && (
            <Field label="Notes">
              {/* Catalogue notes are untrusted text: shown as text, never as HTML. */}
              {item.notes}
            </Field>
          )}
          <Field label="Name">{item.name || '-'}</Field>
          {item.stack && <Field label="Compose file">{item.stack.url}</Field>}
          <Field label="Image">
            {link ? (
              <Anchor href={link} target="_blank" rel="noopener noreferrer" size="sm">
                {item.image}
              </Anchor>
            ) : (
              item.image
            )}
          </Field>
          <Field label="Platform">{item.platform || '-'}</Field>
          <Field label="Command">{item.command?.length ? item.command.join(' ') : '-'}</Field>
          <Rows
            title="Ports"
            head={['Label', 'Host Port', 'Container Port']}
            rows={item.ports.map((p) => [
              p.label,
              p.host_ip ? `${p.host_ip.includes(':') ? `[${p.host_ip}]` : p.host_ip}:${p.hport ?? 'random'}` : p.hport,
              `${p.cport}/${p.proto}`,
            ])}
          />
          <Rows title="Volumes" head={['Host', 'Container']} rows={item.volumes.map((v) => [v.bind, v.container])} />
          <Rows
            title="Environment"
            head={['Label', 'Name', 'Default']}
            rows={item.env.map((e) => [e.label, e.name, e.default])}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
            <DeployItemButton item={item} onDeployStack={onDeployStack} />
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
