import { ActionIcon, Anchor, Button, Center, Group, Menu, Stack, Text, Title, Tooltip } from '@mantine/core';
import { StateBadge } from '../../../components/ui/state-badge.tsx';
import {
  IconDots,
  IconDownload,
  IconFileOff,
  IconHistory,
  IconInfoCircle,
  IconLockOpen,
  IconPencil,
  IconStar,
  IconStarFilled,
  IconTrash,
  IconUserShare,
} from '@tabler/icons-react';
import { versionsApi, type TItem, type TWorkspace } from '@cabinet/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { call } from '../../../lib/api-client.ts';
import { pageRoutes } from '../../../lib/page-routes.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { useChildren, useItem, useStarred } from '../../items/api/use-items.ts';
import { useItemMutations } from '../../items/api/use-item-mutations.ts';
import { DetailsDrawer } from '../../items/components/details-drawer.tsx';
import { useTrashWithUndo } from '../../items/components/item-actions.tsx';
import { BreakLockDialog, RenameItemDialog } from '../../items/components/lock-dialogs.tsx';
import { LockBadge } from '../../items/components/lock-mark.tsx';
import { VersionsDrawer } from '../../items/components/versions-drawer.tsx';
import { NotificationBell } from '../../notifications/components/notification-bell.tsx';
import { ShareDialog } from '../../sharing/components/share-dialog.tsx';
import { noteShown, type ViewerState } from '../../../lib/viewer-return.ts';
import { itemSource } from '../viewer-source.ts';
import { ViewerBody } from './viewer-body.tsx';
import { ViewerFrame, type Neighbour } from './viewer-frame.tsx';
import { PageLoader } from '../../../components/ui/page-loader.tsx';

type Dialog = 'share' | 'versions' | 'details' | 'rename' | 'breakLock';

/**
 * `/w/:ws/file/:fileId[?version=]`: a file of the workspace in the viewer, with the folder's other
 * files a key away (in the folder's own order, files only) and the file's actions in the bar, each
 * shown when the file's abilities allow it (ADR 0024).
 */
export function FileViewerPage({ workspace, fileId, versionId }: { workspace: TWorkspace; fileId: string; versionId: string | undefined }) {
  const item = useItem(fileId);
  const navigate = useNavigate();
  const location = useLocation();
  const state = location.state as ViewerState | null;
  const file = item.data;
  const parentId = file?.parentId ?? undefined;
  const siblings = useChildren(workspace.id, file ? parentId : undefined);
  const files = useMemo(() => (siblings.items ?? []).filter((i) => i.kind === 'file'), [siblings.items]);
  const index = files.findIndex((f) => f.id === fileId);
  const folderUrl = parentId
    ? parentId === workspace.homeId
      ? pageRoutes.myFiles(workspace.slug)
      : pageRoutes.folder(workspace.slug, parentId)
    : pageRoutes.workspace(workspace.slug);
  // The folder's next page, when the file shown is the last one loaded.
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = siblings;
  useEffect(() => {
    if (index >= 0 && index === files.length - 1 && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [index, files.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  useEffect(() => {
    if (file) {
      document.title = `${file.name} · Cabinet`;
      noteShown(file.id);
    }
  }, [file]);
  // A folder or a document has a page of its own.
  useEffect(() => {
    if (file && file.kind !== 'file') void navigate(pageRoutes.item(workspace.slug, file), { replace: true });
  }, [file, navigate, workspace.slug]);

  const close = () => {
    if (state?.viewerFrom) void navigate(-1);
    else void navigate(folderUrl);
  };
  // Stepping through the folder replaces the address (reload shows the same file) and keeps where to go back to.
  const neighbour = (target: TItem | undefined): Neighbour | undefined =>
    target && { name: target.name, go: () => void navigate(pageRoutes.file(workspace.slug, target.id), { replace: true, state }) };

  if (item.isPending) {
    return <PageLoader label="Opening the file" />;
  }
  if (item.error || !file || file.kind !== 'file') {
    return (
      <ViewerFrame name="File not found" onClose={close} closeLabel="Back" previous={undefined} next={undefined} actions={<NotificationBell watched />}>
        <Center h="100%" p="md">
          <Stack align="center" gap="sm" maw={420}>
            <IconFileOff aria-hidden size={48} stroke={1.2} />
            <Title order={2} fz="h3" ta="center">
              This file does not exist
            </Title>
            <Text c="dimmed" ta="center">
              It may have been moved, deleted, or not shared with you.
            </Text>
            <Button component={Link} to={pageRoutes.workspace(workspace.slug)} variant="light">
              Go to Home
            </Button>
          </Stack>
        </Center>
      </ViewerFrame>
    );
  }
  return (
    <ViewerFrame
      name={file.name}
      subtitle={
        versionId || file.lock ? (
          <Group gap={6} wrap="wrap">
            {versionId && <VersionNote workspace={workspace} file={file} versionId={versionId} />}
            {file.lock && <LockBadge lock={file.lock} />}
          </Group>
        ) : undefined
      }
      onClose={close}
      closeLabel={state?.viewerFrom ? 'Back' : `Back to ${parentId ? 'the folder' : 'Home'}`}
      previous={index > 0 ? neighbour(files[index - 1]) : undefined}
      next={index >= 0 ? neighbour(files[index + 1]) : undefined}
      position={index >= 0 ? { at: index + 1, of: files.length, more: hasNextPage } : undefined}
      actions={
        <>
          <FileActions workspace={workspace} file={file} versionId={versionId} onTrashed={() => void navigate(folderUrl, { replace: true })} />
          {/* The bell stays at hand while a file is looked at, told of notifications by the workspace's stream the page follows. */}
          <NotificationBell watched />
        </>
      }
    >
      <SourcedBody key={`${file.id}:${versionId ?? ''}`} file={file} versionId={versionId} />
    </ViewerFrame>
  );
}

/** The file's bytes for the renderer: asked for again when the file gets a new version. */
function SourcedBody({ file, versionId }: { file: TItem; versionId: string | undefined }) {
  const canDownload = file.abilities.download;
  const source = useMemo(
    () => itemSource({ id: file.id, abilities: { download: canDownload } }, versionId),
    // A new current version (size or version changed) is new bytes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [file.id, canDownload, versionId, file.version, file.size],
  );
  return <ViewerBody key={`${file.version}:${file.size}`} item={file} source={source} />;
}

/** Which version is shown, when it is not the current one, and the way back to the current one. */
function VersionNote({ workspace, file, versionId }: { workspace: TWorkspace; file: TItem; versionId: string }) {
  const versions = useQuery({
    queryKey: [...queryKeys.versions(file.id), file.version],
    queryFn: async () => (await call(versionsApi.list, { params: { id: file.id } })).items,
  });
  const version = versions.data?.find((v) => v.id === versionId);
  return (
    <Group gap={6} wrap="nowrap">
      <StateBadge size="xs" tone={version?.current ? 'good' : 'none'}>
        {version ? `Version ${version.number}${version.current ? ' (current)' : ''}` : 'An older version'}
      </StateBadge>
      {!version?.current && (
        <Anchor component={Link} to={pageRoutes.file(workspace.slug, file.id)} size="xs" replace>
          Show the current version
        </Anchor>
      )}
    </Group>
  );
}

interface Action {
  key: string;
  label: string;
  icon: ReactNode;
  /** Shown in the bar on a wide screen; the others are always in More actions. */
  inBar?: boolean;
  href?: string;
  onClick?: () => void;
  danger?: boolean;
}

/** Download, Share, Versions, Details, Rename, Star, Break lock, Move to trash: each when the file's abilities (and its lock) allow it. */
function FileActions({ workspace, file, versionId, onTrashed }: { workspace: TWorkspace; file: TItem; versionId: string | undefined; onTrashed: () => void }) {
  const [dialog, setDialog] = useState<Dialog>();
  const starredList = useStarred(workspace.id);
  const starred = !!starredList.data?.some((i) => i.id === file.id);
  const m = useItemMutations(workspace.id);
  const trash = useTrashWithUndo(workspace.id);
  const source = itemSource(file, versionId);
  const actions: Action[] = [
    ...(source.downloadUrl
      ? [{ key: 'download', label: 'Download', icon: <IconDownload aria-hidden size={18} />, inBar: true, href: source.downloadUrl }]
      : []),
    ...(file.abilities.share
      ? [{ key: 'share', label: 'Share…', icon: <IconUserShare aria-hidden size={18} />, inBar: true, onClick: () => setDialog('share') }]
      : []),
    { key: 'versions', label: 'Versions', icon: <IconHistory aria-hidden size={18} />, inBar: true, onClick: () => setDialog('versions') },
    { key: 'details', label: 'Details', icon: <IconInfoCircle aria-hidden size={18} />, inBar: true, onClick: () => setDialog('details') },
    {
      key: 'star',
      label: starred ? 'Remove star' : 'Add star',
      icon: starred ? <IconStarFilled aria-hidden size={18} style={{ color: 'var(--mantine-color-yellow-6)' }} /> : <IconStar aria-hidden size={18} />,
      inBar: true,
      onClick: () => m.star.mutate({ id: file.id, starred: !starred }),
    },
    ...(file.abilities.edit ? [{ key: 'rename', label: 'Rename', icon: <IconPencil aria-hidden size={18} />, onClick: () => setDialog('rename') }] : []),
    ...(file.lock?.breakable
      ? [{ key: 'break-lock', label: 'Break lock', icon: <IconLockOpen aria-hidden size={18} />, onClick: () => setDialog('breakLock') }]
      : []),
    ...(file.abilities.trash
      ? [
          {
            key: 'trash',
            label: 'Move to trash',
            icon: <IconTrash aria-hidden size={18} />,
            danger: true,
            // As in the lists: no question asked, an Undo offered; the viewer goes back to the folder.
            onClick: () => void trash([file]).then((done) => done.length && onTrashed()),
          },
        ]
      : []),
  ];
  const bar = actions.filter((a) => a.inBar);
  return (
    <>
      <Group gap={2} wrap="nowrap" visibleFrom="md">
        {bar.map((a) => (
          <Tooltip key={a.key} label={a.label}>
            {a.href ? (
              <ActionIcon component="a" href={a.href} variant="subtle" color="gray" size="lg" aria-label={a.label}>
                {a.icon}
              </ActionIcon>
            ) : (
              <ActionIcon
                variant="subtle"
                color="gray"
                size="lg"
                aria-label={a.label}
                aria-pressed={a.key === 'star' ? starred : undefined}
                onClick={a.onClick}
              >
                {a.icon}
              </ActionIcon>
            )}
          </Tooltip>
        ))}
      </Group>
      <Menu position="bottom-end" withinPortal zIndex={300}>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label="More actions">
            <IconDots aria-hidden size={20} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {actions.map((a) => (
            <MenuEntry key={a.key} action={a} hiddenWide={!!a.inBar} />
          ))}
        </Menu.Dropdown>
      </Menu>
      {dialog === 'share' && <ShareDialog item={file} workspace={workspace} onClose={() => setDialog(undefined)} />}
      {dialog === 'versions' && <VersionsDrawer item={file} onClose={() => setDialog(undefined)} />}
      {dialog === 'details' && <DetailsDrawer item={file} workspace={workspace} onClose={() => setDialog(undefined)} />}
      {dialog === 'rename' && (
        <RenameItemDialog item={file} onClose={() => setDialog(undefined)} onSubmit={(name) => m.rename.mutateAsync({ id: file.id, name })} />
      )}
      {dialog === 'breakLock' && <BreakLockDialog item={file} workspaceId={workspace.id} onClose={() => setDialog(undefined)} />}
    </>
  );
}

/** An action in More actions; those the bar shows on a wide screen are in the menu on a narrow one only. */
function MenuEntry({ action: a, hiddenWide }: { action: Action; hiddenWide: boolean }) {
  const props = { leftSection: a.icon, color: a.danger ? 'danger' : undefined, hiddenFrom: hiddenWide ? 'md' : undefined } as const;
  return a.href ? (
    <Menu.Item component="a" href={a.href} {...props}>
      {a.label}
    </Menu.Item>
  ) : (
    <Menu.Item onClick={a.onClick} {...props}>
      {a.label}
    </Menu.Item>
  );
}
