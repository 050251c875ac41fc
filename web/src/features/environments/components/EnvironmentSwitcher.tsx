import { useEffect } from 'react';
import { Button, Group, Menu, Text } from '@mantine/core';
import { IconCheck, IconChevronDown, IconSettings } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { environmentApi, LOCAL_ENVIRONMENT } from '@berth/contract';
import { Can } from '../../../components/RoleGate';
import { hashInEnvironment, useEnvironment } from '../../../lib/environment';
import { environmentsQuery } from '../api';
import { StatusDot } from './StatusDot';

/** Moves the page to the same route in another environment (the router follows the address). */
export const switchEnvironment = (id: string) => {
  window.location.hash = hashInEnvironment(window.location.hash, id);
};

/** The top bar's environment menu: the selected one's name and status, every other one to switch to. */
export function EnvironmentSwitcher() {
  const current = useEnvironment();
  const list = useQuery(environmentsQuery());
  const selected = list.data?.find((e) => e.id === current);
  // An environment removed meanwhile (or a mistyped address): back to local.
  useEffect(() => {
    if (list.data && !selected && current !== LOCAL_ENVIRONMENT) switchEnvironment(LOCAL_ENVIRONMENT);
  }, [list.data, selected, current]);
  return (
    <Menu position="bottom-end" withArrow>
      <Menu.Target>
        <Button
          variant="default"
          size="sm"
          aria-label={`Environment: ${selected?.name ?? current}`}
          rightSection={<IconChevronDown size={14} />}
          maw={220}
        >
          <Group gap={8} wrap="nowrap">
            <StatusDot status={selected?.status} />
            <Text size="sm" truncate>
              {selected?.name ?? current}
            </Text>
          </Group>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Environments</Menu.Label>
        {(list.data ?? []).map((e) => (
          <Menu.Item
            key={e.id}
            leftSection={<StatusDot status={e.status} />}
            rightSection={e.id === current ? <IconCheck size={14} aria-label="selected" /> : null}
            onClick={() => e.id !== current && switchEnvironment(e.id)}
          >
            {e.name}
          </Menu.Item>
        ))}
        <Can route={environmentApi.create}>
          <Menu.Divider />
          <Menu.Item component={Link} to="/settings/environments" leftSection={<IconSettings size={14} />}>
            Manage environments
          </Menu.Item>
        </Can>
      </Menu.Dropdown>
    </Menu>
  );
}
