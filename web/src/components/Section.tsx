import type { ReactNode } from 'react';
import { Paper, Title } from '@mantine/core';

/** A titled block of the Info tab. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="md">
      <Title order={3} size="h5" mb="sm">
        {title}
      </Title>
      {children}
    </Paper>
  );
}
