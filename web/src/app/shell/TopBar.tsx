import { ActionIcon, Avatar, Group, Menu, Title, Tooltip } from '@mantine/core';
import { IconLogout, IconMoon, IconSun, IconUser } from '@tabler/icons-react';
import { Link, useMatches } from 'react-router-dom';
import { useLogout } from '../../features/account/api';
import { EnvironmentSwitcher } from '../../features/environments';
import { routeName } from '../../lib/route-name';
import { useSession } from '../../lib/session';
import { themeStore, useThemeState } from '../../lib/theme';

function UserMenu({ username }: { username: string }) {
  const logout = useLogout();
  return (
    <Menu position="bottom-end" withArrow>
      <Menu.Target>
        <ActionIcon variant="subtle" size="lg" radius="xl" aria-label="User menu">
          <Avatar size={30} radius="xl" color="primary">
            {username.slice(0, 1).toUpperCase()}
          </Avatar>
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{username}</Menu.Label>
        <Menu.Item component={Link} to="/user/info" leftSection={<IconUser size={16} />}>
          User
        </Menu.Item>
        <Menu.Item leftSection={<IconLogout size={16} />} onClick={() => logout.mutate()}>
          Logout
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/** The current route name, a light/dark switch and (unless auth is off) the user menu. */
export function TopBar() {
  const name = routeName(useMatches());
  const s = useSession();
  const theme = useThemeState();
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Title order={1} size="h4" data-testid="route-name" lineClamp={1}>
        {name}
      </Title>
      <Group gap="xs" wrap="nowrap">
        <EnvironmentSwitcher />
        <Tooltip label={theme.dark ? 'Light theme' : 'Dark theme'}>
          <ActionIcon
            variant="subtle"
            size="lg"
            aria-label="Toggle dark theme"
            onClick={() => themeStore.setDark(!theme.dark)}
          >
            {theme.dark ? <IconSun size={18} /> : <IconMoon size={18} />}
          </ActionIcon>
        </Tooltip>
        {!s.authDisabled && s.username && <UserMenu username={s.username} />}
      </Group>
    </Group>
  );
}
