import { Box, Tooltip } from '@mantine/core';
import type { EnvironmentStatus } from '@berth/contract';

/** Green when the engine answered its last check, red when not (the reason in the tooltip and label). */
export function StatusDot({ status }: { status: EnvironmentStatus | undefined }) {
  const ok = status?.reachable ?? false;
  const label = !status
    ? 'Status unknown'
    : ok
      ? `Reachable (Docker ${status.version ?? '?'})`
      : `Unreachable: ${status.error ?? 'no answer'}`;
  return (
    <Tooltip label={label} withArrow>
      <Box
        component="span"
        role="img"
        aria-label={label}
        data-reachable={ok}
        style={{
          display: 'inline-block',
          width: 10,
          height: 10,
          flex: 'none',
          borderRadius: '50%',
          background: !status
            ? 'var(--mantine-color-gray-5)'
            : ok
              ? 'var(--mantine-color-green-6)'
              : 'var(--mantine-color-red-6)',
        }}
      />
    </Tooltip>
  );
}
