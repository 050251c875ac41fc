import { Badge } from '@mantine/core';
import type { App } from '@berth/contract';
import { statusText } from '../model';

const COLORS: Record<string, string> = {
  running: 'green',
  exited: 'red',
  dead: 'red',
  paused: 'yellow',
  restarting: 'orange',
  created: 'blue',
  removing: 'gray',
};

/** An app's State as a coloured badge. */
export function AppStatusBadge({ state }: { state: App['State'] }) {
  const status = state.Status;
  return (
    // max-content: in a narrow table column the badge would otherwise ellipsize its own text.
    <Badge
      color={COLORS[status] ?? 'gray'}
      variant="light"
      data-testid="app-status"
      style={{ minWidth: 'max-content' }}
    >
      {statusText(state)}
    </Badge>
  );
}
