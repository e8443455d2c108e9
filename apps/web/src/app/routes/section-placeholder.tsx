import { Stack, Title } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { EmptyState } from '../../components/ui/empty-state.tsx';

const SECTIONS: Record<string, { title: string; icon: ReactNode; text: string }> = {
  search: { title: 'Search', icon: <IconSearch size={32} />, text: 'Search across names, documents and the text inside files is coming.' },
};

export function SectionPlaceholder({ section }: { section: keyof typeof SECTIONS }) {
  const s = SECTIONS[section]!;
  return (
    <Stack>
      <Title order={1} fz="h2">
        {s.title}
      </Title>
      <EmptyState icon={s.icon} title={`Nothing in ${s.title} yet`}>
        {s.text}
      </EmptyState>
    </Stack>
  );
}
