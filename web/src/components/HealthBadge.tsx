import { Badge } from '@mantine/core';
import type { HealthStatus } from '@berth/contract';

const COLORS: Record<HealthStatus, string> = { healthy: 'green', unhealthy: 'red', starting: 'yellow', none: 'gray' };

/** An app's (or a service's) health as a badge; nothing for `none` unless `showNone` (a table cell says so). */
export function HealthBadge({ health, showNone = false }: { health: HealthStatus; showNone?: boolean }) {
  if (health === 'none' && !showNone) return null;
  return (
    <Badge
      color={COLORS[health]}
      variant={health === 'none' ? 'transparent' : 'outline'}
      data-testid="app-health"
      style={{ minWidth: 'max-content' }}
    >
      {health === 'none' ? '-' : health}
    </Badge>
  );
}
