import { Badge } from '@mantine/core';

const COLORS: Record<string, string> = {
  running: 'green',
  exited: 'red',
  dead: 'red',
  paused: 'yellow',
  restarting: 'orange',
  created: 'blue',
  removing: 'gray',
};

/** An app's State.Status as a coloured badge. */
export function AppStatusBadge({ status }: { status: string }) {
  return (
    // max-content: in a narrow table column the badge would otherwise ellipsize its own text.
    <Badge
      color={COLORS[status] ?? 'gray'}
      variant="light"
      data-testid="app-status"
      style={{ minWidth: 'max-content' }}
    >
      {status}
    </Badge>
  );
}
