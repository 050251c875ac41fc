import { Button, Checkbox, Menu, Stack } from '@mantine/core';
import { IconColumns } from '@tabler/icons-react';

export interface ColumnsMenuProps {
  columns: readonly { key: string; header: string }[];
  hidden: readonly string[];
  onChange: (hidden: string[]) => void;
}

/** The Columns selector: a checkbox per column; at least one stays visible. */
export function ColumnsMenu({ columns, hidden, onChange }: ColumnsMenuProps) {
  const visibleCount = columns.length - hidden.length;
  return (
    <Menu closeOnItemClick={false} position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="default" leftSection={<IconColumns size={16} />}>
          Columns
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Stack gap="xs" p="xs">
          {columns.map((c) => {
            const shown = !hidden.includes(c.key);
            return (
              <Checkbox
                key={c.key}
                label={c.header}
                checked={shown}
                disabled={shown && visibleCount === 1}
                onChange={(e) =>
                  onChange(e.currentTarget.checked ? hidden.filter((k) => k !== c.key) : [...hidden, c.key])
                }
              />
            );
          })}
        </Stack>
      </Menu.Dropdown>
    </Menu>
  );
}
