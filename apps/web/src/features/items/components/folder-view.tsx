import { Anchor, Box, Breadcrumbs, Button, Group, Menu, Skeleton, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFileImport, IconFilePlus, IconFileUpload, IconFolderOpen, IconFolderPlus, IconFolderUp, IconSearch, IconUpload } from '@tabler/icons-react';
import type { TItem, TWorkspace } from '@cabinet/contracts';
import { useRef, useState, type DragEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { showUndo } from '../../../components/ui/undo-toast.tsx';
import { IMPORT_ACCEPT, useImportDocuments } from '../../uploads/import/use-import-documents.tsx';
import { useUploader } from '../../uploads/hooks/use-uploader.ts';
import { filesFromDrop, filesFromInput } from '../../uploads/uploader/collect-files.ts';
import { FolderInput } from '../../uploads/components/folder-input.tsx';
import { useAncestors, useChildren, useItem, useStarred } from '../api/use-items.ts';
import { useItemMutations } from '../api/use-item-mutations.ts';
import { folderTitle, useItemLinks } from '../hooks/use-item-links.ts';
import { useViewMode } from '../hooks/use-view-mode.ts';
import { ViewSwitch } from './view-switch.tsx';
import { ITEM_DRAG_TYPE } from '../hooks/use-item-interactions.ts';
import { ItemTable } from './item-table.tsx';
import { NewFolderDialog } from './new-folder-dialog.tsx';
import { NewDocumentDialog } from './new-document-dialog.tsx';
import { pageRoutes } from '../../../lib/page-routes.ts';

const isFileDrag = (e: DragEvent) => Array.from(e.dataTransfer.types).includes('Files');
const isItemDrag = (e: DragEvent) => Array.from(e.dataTransfer.types).includes(ITEM_DRAG_TYPE);

export function FolderView({ workspace, folderId }: { workspace: TWorkspace; folderId: string }) {
  const ws = workspace.id;
  const folder = useItem(folderId);
  const ancestors = useAncestors(folderId);
  const children = useChildren(ws, folderId);
  const starred = useStarred(ws);
  const m = useItemMutations(ws);
  const uploader = useUploader();
  const linkTo = useItemLinks(workspace);
  const [creating, setCreating] = useState<'folder' | 'document' | null>(null);
  const navigate = useNavigate();
  const [dragging, setDragging] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const importInput = useRef<HTMLInputElement>(null);
  const importDocuments = useImportDocuments(ws);
  // Things can be made, uploaded and dropped here.
  const editable = !!folder.data?.abilities.createInside;
  const [view, setView] = useViewMode();

  /** Files dropped from the computer upload into `target`; items dragged from the list move there. */
  const dropInto = async (target: TItem, e: DragEvent) => {
    if (isItemDrag(e)) {
      const ids = JSON.parse(e.dataTransfer.getData(ITEM_DRAG_TYPE)) as string[];
      for (const id of ids.filter((i) => i !== target.id)) {
        m.move.mutate(
          { id, parentId: target.id },
          {
            onSuccess: (moved) => showUndo(`Moved “${moved.name}” to “${folderTitle(target, workspace)}”`, () => m.move.mutate({ id, parentId: folderId })),
            onError: (error) => notifications.show({ color: 'red', message: error.message }),
          },
        );
      }
    } else if (isFileDrag(e)) {
      uploader.add(ws, target.id, await filesFromDrop(e.dataTransfer));
    }
  };

  /** Each file becomes a document; a single one opens once it is made. */
  const importFiles = async (files: File[]) => {
    const made = await importDocuments(folderId, files);
    if (files.length === 1 && made[0]) void navigate(linkTo(made[0])!);
  };

  if (folder.error) {
    return (
      <EmptyState icon={<IconFolderOpen size={32} />} title="This folder does not exist">
        It may have been moved, deleted, or not shared with you.
      </EmptyState>
    );
  }
  const title = folder.data ? folderTitle(folder.data, workspace) : '';
  const items = children.items ?? [];
  const starredIds = new Set((starred.data ?? []).map((i) => i.id));

  return (
    <Stack
      gap="md"
      pos="relative"
      mih="60vh"
      onDragOver={(e) => {
        if (!editable || !isFileDrag(e)) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={(e) => {
        setDragging(false);
        if (!editable || !folder.data || !isFileDrag(e)) return;
        e.preventDefault();
        void dropInto(folder.data, e);
      }}
    >
      <nav aria-label="Folder path">
        <Breadcrumbs separatorMargin={4}>
          {(ancestors.data ?? []).map((a) => (
            <Anchor
              key={a.id}
              component={Link}
              to={linkTo(a)!}
              size="sm"
              underline="hover"
              onDragOver={(e) => {
                if (isItemDrag(e) && a.abilities.createInside) e.preventDefault();
              }}
              onDrop={(e) => {
                e.preventDefault();
                e.stopPropagation();
                void dropInto(a, e);
              }}
            >
              {folderTitle(a, workspace)}
            </Anchor>
          ))}
          <Text size="sm" aria-current="page">
            {title}
          </Text>
        </Breadcrumbs>
      </nav>
      <Group justify="space-between" gap="xs">
        {/* Focusable from script: when the last row is trashed, the keyboard lands here. */}
        <Title order={1} fz="h2" tabIndex={-1}>
          {title || <Skeleton h={28} w={160} />}
        </Title>
        <Group gap="xs">
          {/* The search page, narrowed to this folder and everything below it. */}
          <Button
            component={Link}
            to={pageRoutes.search(workspace.slug, { in: folderId })}
            variant="default"
            size="xs"
            leftSection={<IconSearch aria-hidden size={16} />}
          >
            Search in this folder
          </Button>
          <ViewSwitch value={view} onChange={setView} />
          {editable && (
            <Group gap="xs">
              <Button variant="default" leftSection={<IconFolderPlus aria-hidden size={18} />} onClick={() => setCreating('folder')}>
                New folder
              </Button>
              <Button variant="default" leftSection={<IconFilePlus aria-hidden size={18} />} onClick={() => setCreating('document')}>
                New document
              </Button>
              <Menu position="bottom-end">
                <Menu.Target>
                  <Button leftSection={<IconUpload aria-hidden size={18} />}>Upload</Button>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Item leftSection={<IconFileUpload aria-hidden size={16} />} onClick={() => fileInput.current?.click()}>
                    Upload files
                  </Menu.Item>
                  <Menu.Item leftSection={<IconFolderUp aria-hidden size={16} />} onClick={() => folderInput.current?.click()}>
                    Upload a folder
                  </Menu.Item>
                  <Menu.Divider />
                  <Menu.Item leftSection={<IconFileImport aria-hidden size={16} />} onClick={() => importInput.current?.click()}>
                    Import as document (Markdown, HTML, Word)
                  </Menu.Item>
                </Menu.Dropdown>
              </Menu>
              <input
                ref={fileInput}
                type="file"
                multiple
                hidden
                aria-label="Files to upload"
                onChange={(e) => {
                  if (e.currentTarget.files) uploader.add(ws, folderId, filesFromInput(e.currentTarget.files));
                  e.currentTarget.value = '';
                }}
              />
              <input
                ref={importInput}
                type="file"
                multiple
                hidden
                accept={IMPORT_ACCEPT}
                aria-label="Files to import as documents"
                onChange={(e) => {
                  if (e.currentTarget.files) void importFiles([...e.currentTarget.files]);
                  e.currentTarget.value = '';
                }}
              />
              <FolderInput inputRef={folderInput} onFiles={(files) => uploader.add(ws, folderId, files)} />
            </Group>
          )}
        </Group>
      </Group>
      {children.isPending ? (
        <Skeleton h={120} />
      ) : items.length === 0 ? (
        <EmptyState icon={<IconFolderOpen size={32} />} title="This folder is empty">
          {editable ? 'Drop files or folders here, or use Upload. New folder keeps things organised.' : 'Nothing has been put here yet.'}
        </EmptyState>
      ) : (
        <ItemTable
          label={`Contents of ${title}`}
          view={view}
          workspace={workspace}
          items={items}
          starredIds={starredIds}
          linkTo={linkTo}
          onNearEnd={children.hasNextPage && !children.isFetchingNextPage ? () => void children.fetchNextPage() : undefined}
          onDropOnFolder={(target, e) => void dropInto(target, e)}
        />
      )}
      {dragging && (
        <Box
          aria-hidden
          pos="absolute"
          inset={0}
          // Above everything in the view (the view switch, the sticky selection bar), and opaque: the tint is laid over the page's own background.
          style={{
            zIndex: 4,
            border: '2px dashed var(--mantine-primary-color-filled)',
            borderRadius: 8,
            background: 'linear-gradient(var(--mantine-primary-color-light), var(--mantine-primary-color-light)), var(--mantine-color-body)',
            pointerEvents: 'none',
            display: 'grid',
            placeItems: 'center',
          }}
        >
          <Text fw={600}>Drop to upload to “{title}”</Text>
        </Box>
      )}
      {creating === 'folder' && <NewFolderDialog workspace={workspace} parentId={folderId} onClose={() => setCreating(null)} />}
      {creating === 'document' && <NewDocumentDialog workspace={workspace} parentId={folderId} onClose={() => setCreating(null)} />}
    </Stack>
  );
}
