import { Group, Menu, Stack, Text, UnstyledButton } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useIsSwarmManager } from '../../features/environments';
import {
  isActive,
  MAIN_ITEMS,
  RESOURCE_ITEMS,
  ResourcesIcon,
  SETTINGS_ITEM,
  SWARM_ITEMS,
  SwarmIcon,
  type NavItem,
  useVisibleItems,
} from './nav-items';

const [dashboard, apps, templates, projects, events] = MAIN_ITEMS as [NavItem, NavItem, NavItem, NavItem, NavItem];

function BarButton({
  icon,
  label,
  active,
  ...rest
}: { icon: ReactNode; label: string; active: boolean } & Record<string, unknown>) {
  return (
    <UnstyledButton aria-label={label} c={active ? 'primary' : undefined} style={{ flex: 1 }} py={6} {...rest}>
      <Stack gap={0} align="center">
        {icon}
        <Text size="xs">{label}</Text>
      </Stack>
    </UnstyledButton>
  );
}

function GroupMenu({
  label,
  icon,
  items,
  pathname,
}: {
  label: string;
  icon: ReactNode;
  items: NavItem[];
  pathname: string;
}) {
  return (
    <Menu position="top" withArrow>
      <Menu.Target>
        <BarButton icon={icon} label={label} active={items.some((i) => isActive(pathname, i.to))} />
      </Menu.Target>
      <Menu.Dropdown>
        {items.map(({ to, label: itemLabel, icon: Icon }) => (
          <Menu.Item key={to} component={Link} to={to} leftSection={<Icon size={16} />}>
            {itemLabel}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * Narrow screens, in the sidebar's words: Dashboard, Applications (the sidebar's top items:
 * Applications, Templates, Projects, Events), Resources (Images, Volumes, Networks), Swarm (on a
 * swarm manager), Settings.
 */
export function BottomBar() {
  const { pathname } = useLocation();
  const DashIcon = dashboard.icon;
  const SetIcon = SETTINGS_ITEM.icon;
  const AppsIcon = apps.icon;
  const swarm = useIsSwarmManager();
  const resources = useVisibleItems(RESOURCE_ITEMS);
  return (
    <Group component="nav" aria-label="Bottom navigation" h="100%" gap={0} wrap="nowrap" justify="space-around">
      <BarButton
        component={Link}
        to="/"
        icon={<DashIcon size={20} />}
        label={dashboard.label}
        active={isActive(pathname, '/')}
      />
      <GroupMenu
        label={apps.label}
        icon={<AppsIcon size={20} />}
        items={[apps, templates, projects, events]}
        pathname={pathname}
      />
      <GroupMenu label="Resources" icon={<ResourcesIcon size={20} />} items={resources} pathname={pathname} />
      {swarm && <GroupMenu label="Swarm" icon={<SwarmIcon size={20} />} items={SWARM_ITEMS} pathname={pathname} />}
      <BarButton
        component={Link}
        to={SETTINGS_ITEM.to}
        icon={<SetIcon size={20} />}
        label={SETTINGS_ITEM.label}
        active={isActive(pathname, '/settings')}
      />
    </Group>
  );
}
