import { ActionIcon, Tooltip } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { Can } from './RoleGate';
import type { RouteAccess } from '../lib/session';

/**
 * A table toolbar's "+" (Pull Image, Create Volume, Deploy Stack…): opens a page (`to`) or a dialog
 * (`onClick`). Only there for a role that may call `route`, the call it leads to.
 */
export function AddAction({
  label,
  route,
  to,
  onClick,
}: { label: string; route: RouteAccess } & ({ to: string; onClick?: never } | { onClick: () => void; to?: never })) {
  return (
    <Can route={route}>
      <Tooltip label={label}>
        {to !== undefined ? (
          <ActionIcon component={Link} to={to} variant="filled" size="lg" aria-label={label}>
            <IconPlus size={18} />
          </ActionIcon>
        ) : (
          <ActionIcon variant="filled" size="lg" aria-label={label} onClick={onClick}>
            <IconPlus size={18} />
          </ActionIcon>
        )}
      </Tooltip>
    </Can>
  );
}
