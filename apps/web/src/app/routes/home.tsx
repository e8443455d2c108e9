import { Anchor, Box, Group, Paper, Skeleton, Stack, Text, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import { IconClock, IconFilePlus, IconStar, IconUpload, IconUserPlus, IconUserShare } from '@tabler/icons-react';
import type { TItem, TWorkspace } from '@cabinet/contracts';
import { lazy, Suspense, useId, useRef, useState, type ReactNode } from 'react';
import { Link, useNavigate, useOutletContext } from 'react-router';
import { useMe } from '../../features/auth/api/use-me.ts';
import { useRecent, useStarred } from '../../features/items/api/use-items.ts';
import { useSharedWithMe } from '../../features/sharing/api/use-sharing.ts';
import { ItemName } from '../../features/items/components/item-name.tsx';
import { useItemLinks } from '../../features/items/hooks/use-item-links.ts';
import { useUploaderPromise } from '../../features/uploads/hooks/use-uploader.ts';
import { filesFromInput } from '../../features/uploads/uploader/collect-files.ts';

// Fetched when the person first asks for it: the name dialog brings the form and its validation.
const NewDocumentDialog = lazy(() => import('../../features/items/components/new-document-dialog.tsx').then((m) => ({ default: m.NewDocumentDialog })));
const InviteDialog = lazy(() => import('../../features/team/components/invite-dialog.tsx').then((m) => ({ default: m.InviteDialog })));

/** How many items Home shows of Recent and Starred; their pages have the rest. */
const SHOWN = 5;

/** Side by side where there is room for `min` each, stacked on a phone: a plain CSS grid (SimpleGrid would bring its media-query machinery to the first load). */
function Columns({ min, children }: { min: string; children: ReactNode }) {
  return <Box style={{ display: 'grid', gap: 'var(--mantine-spacing-md)', gridTemplateColumns: `repeat(auto-fit, minmax(min(100%, ${min}), 1fr))` }}>{children}</Box>;
}

/** A card-sized button named by its title alone (a name that took in the text would also answer to, say, "New document"). */
function QuickAction({ icon: Icon, title, text, onClick }: { icon: typeof IconUpload; title: string; text: string; onClick: () => void }) {
  const textId = useId();
  return (
    <UnstyledButton onClick={onClick} w="100%" h="100%" aria-describedby={textId}>
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
function Shortlist({ id, title, linkLabel, to, workspace, query, empty, icon: Icon }: { id: string; title: string; linkLabel?: string; to: string; workspace: TWorkspace; query: { data: TItem[] | undefined; isPending: boolean }; empty: string; icon: typeof IconClock }) {
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
            <Icon aria-hidden size={20} />
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
  const [inviting, setInviting] = useState(false);
  const manages = workspace.role === 'owner' || workspace.role === 'admin';
  const uploader = useUploaderPromise();
  const navigate = useNavigate();
  const fileInput = useRef<HTMLInputElement>(null);
  const [writing, setWriting] = useState(false);
  const base = `/w/${workspace.slug}`;
  const firstName = me.data?.user.name.split(/\s+/)[0];
  return (
    <Stack gap="xl" maw={960}>
      <div>
        <Title order={1} fz="h2">
          Welcome{firstName ? `, ${firstName}` : ''}
        </Title>
        <Text c="dimmed">{workspace.name}</Text>
      </div>
      {workspace.role === 'guest' ? (
        <Paper withBorder radius="md" p="lg">
          <Text>You are a guest here: you see only what others share with you.</Text>
          <Anchor component={Link} to={`${base}/shared`}>
            Open Shared with me
          </Anchor>
        </Paper>
      ) : (
      <section aria-labelledby="quick-actions">
        <Title order={2} fz="h4" id="quick-actions" mb="sm">
          Quick actions
        </Title>
        <Columns min="16rem">
          <QuickAction icon={IconUpload} title="Upload files" text="Into My files: any size, straight to storage, resumable after a dropped connection." onClick={() => fileInput.current?.click()} />
          <QuickAction icon={IconFilePlus} title="New document" text="A new document in My files, to edit together in real time, with comments and history." onClick={() => setWriting(true)} />
          {manages && <QuickAction icon={IconUserPlus} title="Invite people" text="Ask colleagues to join by email, or make an invite link to send yourself." onClick={() => setInviting(true)} />}
        </Columns>
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          aria-label="Upload into My files"
          onChange={(e) => {
            if (e.currentTarget.files) {
              const files = filesFromInput(e.currentTarget.files);
              void uploader.then((m) => m.add(workspace.id, workspace.homeId, files));
            }
            e.currentTarget.value = '';
            // The files arrive where the person can see them.
            void navigate(`${base}/my`);
          }}
        />
        {writing && (
          <Suspense fallback={null}>
            <NewDocumentDialog workspace={workspace} parentId={workspace.homeId} onClose={() => setWriting(false)} />
          </Suspense>
        )}
        {inviting && (
          <Suspense fallback={null}>
            <InviteDialog workspace={workspace} onClose={() => setInviting(false)} />
          </Suspense>
        )}
      </section>
      )}
      <Columns min="22rem">
        <Shortlist id="recent-heading" title="Recent" to={`${base}/recent`} workspace={workspace} query={recent} icon={IconClock} empty="Files you upload or open will be listed here." />
        <Shortlist id="starred-heading" title="Starred" to={`${base}/starred`} workspace={workspace} query={starred} icon={IconStar} empty="Star what you use often and it will wait for you here." />
        <Shortlist
          id="shared-heading"
          title="Recently shared with me"
          linkLabel="All shared with me"
          to={`${base}/shared`}
          workspace={workspace}
          query={{ data: shared.items?.map((s) => s.item), isPending: shared.isPending }}
          icon={IconUserShare}
          empty="When someone shares a file, folder or document with you, it appears here."
        />
      </Columns>
    </Stack>
  );
}
