import type { ReactNode } from 'react';
import { Center, Loader } from '@mantine/core';
import type { App } from '@berth/contract';
import { useApp } from '../api/queries';
import { isRunning } from '../model';
import { NotRunning } from './NotRunning';

export function AppLoading() {
  return (
    <Center py="xl">
      <Loader aria-label="Loading" />
    </Center>
  );
}

/**
 * Renders `children` only while the app runs, so whatever they open (log and stats streams,
 * process polling) starts with the app and ends when it stops.
 */
export function RunningOnly({
  name,
  what,
  children,
}: {
  name: string;
  what: 'processes' | 'logs' | 'stats' | 'terminal';
  children: (app: App) => ReactNode;
}) {
  const { data: app } = useApp(name);
  if (!app) return <AppLoading />;
  if (!isRunning(app)) return <NotRunning what={what} />;
  return <>{children(app)}</>;
}
