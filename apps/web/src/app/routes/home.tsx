import { Anchor, Box, Group, Paper, Skeleton, Stack, Text, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import { IconClock, IconStar, IconUserShare } from '@tabler/icons-react';
import type { TItem, TWorkspace } from '@cabinet/contracts';
import { useId, type ReactNode } from 'react';
import { Link, useOutletContext } from 'react-router';
import { useMe } from '../../features/auth/api/use-me.ts';
import { useRecent, useStarred } from '../../features/items/api/use-items.ts';
import { useSharedWithMe } from '../../features/sharing/api/use-shared-with-me.ts';
import { ItemName } from '../../features/items/components/item-name.tsx';
import { useItemLinks } from '../../features/items/hooks/use-item-links.ts';
import { useQuickActions, type QuickAction as TQuickAction } from '../../features/items/components/quick-actions.tsx';
import { pageRoutes } from '../../lib/page-routes.ts';

/** How many items Home shows of Recent and Starred; their pages have the rest. */
const SHOWN = 5;

/**
 * Side by side where there is room for `min` each, stacked on a phone: a plain CSS grid
 * (SimpleGrid would bring its media-query machinery to the first load).
 */
function Columns({ min, children }: { min: string; children: ReactNode }) {
  return (
    <Box style={{ display: 'grid', gap: 'var(--mantine-spacing-md)', gridTemplateColumns: `repeat(auto-fit, minmax(min(100%, ${min}), 1fr))` }}>{children}</Box>
  );
}

/** A card-sized button named by its title alone (a name that took in the text would also answer to, say, "New document"). */
function QuickAction({ action: { icon: Icon, title, text, run } }: { action: TQuickAction }) {
  const textId = useId();
  return (
    <UnstyledButton onClick={run} w="100%" h="100%" aria-describedby={textId}>
      <Paper withBorder radius="md" p="lg" h="100%">
        <Group wrap="nowrap" align="flex-start">
          <ThemeIcon variant="light" size="lg" aria-hidden>
            <Icon size={20} />
          </ThemeIcon>
          <div>
            <Text fw={600}>{title}</Text>
            <Text size="sm" c="dimmed" id={textId} aria-hidden>
              {text}
            </Text>
          </div>
        </Group>
      </Paper>
    </UnstyledButton>
  );
}

/** The first few items of Recent or Starred, from the same query as their page, and a way there. */
function Shortlist({
  id,
  title,
  linkLabel,
  to,
  workspace,
  query,
  empty,
  icon: Icon,
}: {
  id: string;
  title: string;
  linkLabel?: string;
  to: string;
  workspace: TWorkspace;
  query: { data: TItem[] | undefined; isPending: boolean };
  empty: string;
  icon: typeof IconClock;
}) {
  const linkTo = useItemLinks(workspace);
  const items = query.data ?? [];
  return (
    <section aria-labelledby={id}>
      <Group justify="space-between" mb="sm">
        <Title order={2} fz="h4" id={id}>
          {title}
        </Title>
        {items.length > 0 && (
          <Anchor component={Link} to={to} size="sm">
            {linkLabel ?? `All ${title.toLowerCase()}`}
          </Anchor>
        )}
      </Group>
      <Paper withBorder radius="md" p="md">
        {query.isPending ? (
          <Skeleton h={60} />
        ) : items.length === 0 ? (
          <Group gap="sm" wrap="nowrap">
            <Icon aria-hidden size={20} style={{ flexShrink: 0 }} />
            <Text size="sm" c="dimmed">
              {empty}
            </Text>
          </Group>
        ) : (
          <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-labelledby={id}>
            {items.slice(0, SHOWN).map((item) => (
              <li key={item.id}>
                <ItemName item={item} to={linkTo(item)} />
              </li>
            ))}
          </Stack>
        )}
      </Paper>
    </section>
  );
}

export function HomePage() {
  const workspace = useOutletContext<TWorkspace>();
  const me = useMe();
  const recent = useRecent(workspace.id);
  const starred = useStarred(workspace.id);
  const shared = useSharedWithMe(workspace.id);
  // Guests put nothing at a root: they have Shared with me instead.
  const roots = workspace.abilities.createInRoots;
  const quick = useQuickActions(workspace, roots ? { id: workspace.homeId, name: 'My files', to: pageRoutes.myFiles(workspace.slug) } : undefined);
  const firstName = me.data?.user.name.split(/\s+/)[0];
  return (
    <Stack gap="xl" maw={960}>
      <div>
        <Title order={1} fz="h2">
          Welcome{firstName ? `, ${firstName}` : ''}
        </Title>
        <Text c="dimmed">{workspace.name}</Text>
      </div>
      {!roots ? (
        <Paper withBorder radius="md" p="lg">
          <Text>You are a guest here: you see only what others share with you.</Text>
          <Anchor component={Link} to={pageRoutes.shared(workspace.slug)}>
            Open Shared with me
          </Anchor>
        </Paper>
      ) : (
        <section aria-labelledby="quick-actions">
          <Title order={2} fz="h4" id="quick-actions" mb="sm">
            Quick actions
          </Title>
          <Columns min="16rem">
            {/* A folder is made where it belongs (My files, a folder, the palette): Home keeps to its three cards. */}
            {quick.actions
              .filter((a) => a.id !== 'new-folder')
              .map((a) => (
                <QuickAction key={a.id} action={a} />
              ))}
          </Columns>
          {quick.element}
        </section>
      )}
      <Columns min="22rem">
        <Shortlist
          id="recent-heading"
          title="Recent"
          to={pageRoutes.recent(workspace.slug)}
          workspace={workspace}
          query={recent}
          icon={IconClock}
          empty="Files you upload or open will be listed here."
        />
        <Shortlist
          id="starred-heading"
          title="Starred"
          to={pageRoutes.starred(workspace.slug)}
          workspace={workspace}
          query={starred}
          icon={IconStar}
          empty="Star what you use often and it will wait for you here."
        />
        <Shortlist
          id="shared-heading"
          title="Recently shared with me"
          linkLabel="All shared with me"
          to={pageRoutes.shared(workspace.slug)}
          workspace={workspace}
          query={{ data: shared.items?.map((s) => s.item), isPending: shared.isPending }}
          icon={IconUserShare}
          empty="When someone shares a file, folder or document with you, it appears here."
        />
      </Columns>
    </Stack>
  );
}
