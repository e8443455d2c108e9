import { Skeleton, Stack, Text, Title } from '@mantine/core';
import type { TItem, TWorkspace } from '@cabinet/contracts';
import type { ReactNode } from 'react';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { useStarred } from '../api/use-items.ts';
import { useItemLinks } from '../hooks/use-item-links.ts';
import { ItemTable } from './item-table.tsx';

/** A list of items from anywhere in the workspace (Starred, Recent), with the same rows as a folder. */
export function ItemListView({
  workspace,
  title,
  intro,
  items,
  pending,
  empty,
}: {
  workspace: TWorkspace;
  title: string;
  intro: string;
  items: TItem[] | undefined;
  pending: boolean;
  empty: { icon: ReactNode; title: string; text: string };
}) {
  const starred = useStarred(workspace.id);
  const linkTo = useItemLinks(workspace);
  return (
    <Stack gap="md">
      {/* Focusable from script: when the last row is trashed, the keyboard lands here. */}
      <Title order={1} fz="h2" tabIndex={-1}>
        {title}
      </Title>
      <Text size="sm" c="dimmed">
        {intro}
      </Text>
      {pending ? (
        <Skeleton h={120} />
      ) : !items?.length ? (
        <EmptyState icon={empty.icon} title={empty.title}>
          {empty.text}
        </EmptyState>
      ) : (
        <ItemTable label={title} workspace={workspace} items={items} starredIds={new Set((starred.data ?? []).map((i) => i.id))} linkTo={linkTo} />
      )}
    </Stack>
  );
}
