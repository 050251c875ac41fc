import { NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router-dom';
import { useIsSwarmManager } from '../../features/environments';
import {
  EXTERNAL_ITEMS,
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

function Item({ item, pathname }: { item: NavItem; pathname: string }) {
  const Icon = item.icon;
  return (
    <NavLink
      component={Link}
      to={item.to}
      label={item.label}
      leftSection={<Icon size={18} />}
      active={isActive(pathname, item.to)}
    />
  );
}

/** Left navigation on wide screens. */
export function Sidebar() {
  const { pathname } = useLocation();
  const swarm = useIsSwarmManager();
  const resources = useVisibleItems(RESOURCE_ITEMS);
  return (
    <ScrollArea h="100%">
      <Stack gap={2} p="xs" component="nav" aria-label="Main">
        {MAIN_ITEMS.map((item) => (
          <Item key={item.to} item={item} pathname={pathname} />
        ))}
        <NavLink label="Resources" leftSection={<ResourcesIcon size={18} />} defaultOpened childrenOffset={16}>
          {resources.map((item) => (
            <Item key={item.to} item={item} pathname={pathname} />
          ))}
        </NavLink>
        {swarm && (
          <NavLink label="Swarm" leftSection={<SwarmIcon size={18} />} defaultOpened childrenOffset={16}>
            {SWARM_ITEMS.map((item) => (
              <Item key={item.to} item={item} pathname={pathname} />
            ))}
          </NavLink>
        )}
        <Item item={SETTINGS_ITEM} pathname={pathname} />
        <Text size="xs" c="dimmed" mt="md" px="sm">
          Links
        </Text>
        {EXTERNAL_ITEMS.map(({ href, label, icon: Icon }) => (
          <NavLink
            key={href}
            href={href}
            target="_blank"
            rel="noopener noreferrer"
            label={label}
            leftSection={<Icon size={18} />}
            rightSection={<IconExternalLink size={14} />}
          />
        ))}
      </Stack>
    </ScrollArea>
  );
}
