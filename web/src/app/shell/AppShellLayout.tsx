import { AppShell, Group, Image, Text, UnstyledButton } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { Suspense } from 'react';
import { Link, Outlet } from 'react-router-dom';
import { BottomBar } from './BottomBar';
import { EngineBanner } from './EngineBanner';
import { Sidebar } from './Sidebar';
import { TopBar } from './TopBar';
import { useClearErrorsOnNavigate } from './use-clear-errors-on-navigate';

export const WIDE_QUERY = '(min-width: 48em)';

/** Sidebar on wide screens, bottom bar on narrow ones, the top bar and the routed page. */
export function AppShellLayout() {
  const wide = useMediaQuery(WIDE_QUERY, window.matchMedia(WIDE_QUERY).matches);
  useClearErrorsOnNavigate();
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={wide ? { width: 230, breakpoint: 0 } : undefined}
      footer={wide ? undefined : { height: 60 }}
      padding="md"
      styles={{
        header: { background: 'var(--berth-surface)' },
        navbar: { background: 'var(--berth-surface)' },
        footer: { background: 'var(--berth-surface)' },
      }}
    >
      <AppShell.Header>
        <Group h="100%" wrap="nowrap" gap={0}>
          {wide && (
            <UnstyledButton component={Link} to="/" w={230} px="md" aria-label="Berth home">
              <Group gap="xs" wrap="nowrap">
                <Image src="/favicon.svg" w={28} h={28} alt="" />
                <Text fw={700} size="lg">
                  Berth
                </Text>
              </Group>
            </UnstyledButton>
          )}
          <div style={{ flex: 1, minWidth: 0, height: '100%' }}>
            <TopBar />
          </div>
        </Group>
      </AppShell.Header>
      {wide && (
        <AppShell.Navbar>
          <Sidebar />
        </AppShell.Navbar>
      )}
      <AppShell.Main>
        <EngineBanner />
        <Suspense>
          <Outlet />
        </Suspense>
      </AppShell.Main>
      {!wide && (
        <AppShell.Footer>
          <BottomBar />
        </AppShell.Footer>
      )}
    </AppShell>
  );
}
