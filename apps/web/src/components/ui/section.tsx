import { Paper, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A titled part of a page (the account, a workspace's settings, the instance's administration), named by its heading. */
export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Paper component="section" aria-labelledby={id} withBorder radius="md" p={{ base: 'sm', sm: 'lg' }}>
      <Title order={2} fz="h4" id={id} mb="md">
        {title}
      </Title>
      {children}
    </Paper>
  );
}
