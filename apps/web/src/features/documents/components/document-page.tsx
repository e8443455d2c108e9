import { Anchor, Breadcrumbs, Group, Paper, Skeleton, Stack, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { TWorkspace } from '@cabinet/contracts';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../../lib/api-client.ts';
import { useMe } from '../../auth/api/use-me.ts';
import { useAncestors, useItem } from '../../items/api/use-items.ts';
import { useItemMutations } from '../../items/api/use-item-mutations.ts';
import { folderTitle, useItemLinks } from '../../items/hooks/use-item-links.ts';
import { forgetSnapshot, useDocumentSnapshot } from '../hooks/use-document-snapshot.ts';
import { DocumentMenu } from './document-menu.tsx';
import { changePlaces, editorPlace, SnapshotView } from './document-snapshot.tsx';

// The editor's code comes after the page's: the page shows the document as this browser last had it meanwhile (ADR 0052).
type Editor = (typeof import('./document-editor.tsx'))['DocumentEditor'];
const editorModule = () => import('./document-editor.tsx');
// So do the dialogs, when asked for.
const NameDialog = lazy(() => import('../../items/components/name-dialog.tsx').then((m) => ({ default: m.NameDialog })));
const ShareDialog = lazy(() => import('../../sharing/components/share-dialog.tsx').then((m) => ({ default: m.ShareDialog })));

/** `/w/:ws/d/:docId`: a document, its place in the tree, and the live editor. */
export default function DocumentPage({ workspace, documentId }: { workspace: TWorkspace; documentId: string }) {
  const item = useItem(documentId);
  const ancestors = useAncestors(documentId);
  const me = useMe();
  const linkTo = useItemLinks(workspace);
  const m = useItemMutations(workspace.id);
  const [renaming, setRenaming] = useState(false);
  const [sharing, setSharing] = useState(false);
  const { settled, snapshot, copyName } = useDocumentSnapshot(me.data?.user.id, documentId);
  // The snapshot stands in for the editor, which is built out of sight, until the editor holds the
  // document; then both change places in the same task (the text is never on the page twice). It
  // is shown once the server has said the person may still edit the document (an editor keeps a
  // copy, and its snapshot); of a document they may no longer open, or only read, it goes.
  const [opened, setOpened] = useState(false);
  const mayEdit = item.data?.abilities.edit;
  const standIn = !!snapshot && mayEdit === true && !opened;
  const notFound = !item.data && item.error instanceof ApiError && item.error.code === 'not_found';
  const unwanted = !!snapshot && (notFound || mayEdit === false);
  useEffect(() => {
    if (unwanted && copyName) forgetSnapshot(copyName);
  }, [unwanted, copyName]);
  // The editor's code is asked for once the snapshot is painted (its loading would hold the paint
  // back), and the editor shown once its code is in, without suspending (React would hold its reveal
  // back for up to 300 ms after the page's).
  const [painted, setPainted] = useState(false);
  const [DocumentEditor, setDocumentEditor] = useState<Editor>();
  const [editorFailed, setEditorFailed] = useState<unknown>();
  if (editorFailed) throw editorFailed; // To the page's error boundary, as a module that failed to load is.
  const wantEditor = settled && (!snapshot || (!item.isPending && (!standIn || painted)));
  useEffect(() => {
    if (!wantEditor) return;
    let live = true;
    editorModule().then(
      (m) => live && setDocumentEditor(() => m.DocumentEditor),
      (error: unknown) => live && setEditorFailed(error ?? new Error('The editor could not be loaded.')),
    );
    return () => {
      live = false;
    };
  }, [wantEditor]);
  const editorBox = useRef<HTMLDivElement>(null);
  const snapshotFrame = useRef<HTMLDivElement>(null);
  // Room for the editor's status row and toolbar, as it last took over at this width: the text does not move then.
  const [room] = useState(editorPlace);
  const open = useCallback(() => {
    changePlaces(snapshotFrame.current, snapshot?.element, editorBox.current);
    setOpened(true);
  }, [snapshot]);

  if (me.isPending || item.isPending) return <Skeleton h={320} />;
  if (!me.data || !item.data) return <Title order={1}>Document not found</Title>;
  const { abilities } = item.data;
  // A share changed while the document is open: the item's abilities (and with them the editor) follow.
  const accessChanged = (readOnly: boolean) => {
    void item.refetch();
    notifications.show({
      message: readOnly ? 'Your access to this document changed: you can now only read it.' : 'Your access to this document changed: you can now edit it.',
    });
  };
  return (
    <Stack gap="md">
      {/* The path's row is kept while it loads (a document is always in a folder; the breadcrumbs' line is their font
          size): what is below it, the snapshot first, does not move when it comes. */}
      <nav aria-label="Folder path" style={{ minHeight: 'var(--mantine-font-size-sm)' }}>
        <Breadcrumbs separatorMargin={4}>
          {(ancestors.data ?? []).map((a) => (
            <Anchor key={a.id} component={Link} to={linkTo(a) ?? '#'} size="sm">
              {folderTitle(a, workspace)}
            </Anchor>
          ))}
        </Breadcrumbs>
      </nav>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <Title order={1} style={{ overflowWrap: 'anywhere' }}>
          {item.data.name}
        </Title>
        <DocumentMenu documentId={documentId} abilities={abilities} onRename={() => setRenaming(true)} onShare={() => setSharing(true)} />
      </Group>
      {standIn && (
        <Paper ref={snapshotFrame} withBorder radius="md" mih={300} style={{ marginTop: room.frame }}>
          <div style={{ padding: 'var(--mantine-spacing-lg)', paddingTop: `calc(var(--mantine-spacing-lg) + ${room.text}px)` }}>
            <SnapshotView snapshot={snapshot} onPainted={() => setPainted(true)} />
          </div>
        </Paper>
      )}
      {DocumentEditor ? (
        <div ref={editorBox} style={{ display: standIn ? 'none' : 'contents' }}>
          <DocumentEditor
            workspaceId={workspace.id}
            documentId={documentId}
            title={item.data.name}
            abilities={abilities}
            me={{ id: me.data.user.id, name: me.data.user.name || me.data.user.email }}
            onAccessChange={accessChanged}
            shownState={standIn ? snapshot.state : undefined}
            onShown={standIn ? open : undefined}
          />
        </div>
      ) : (
        !standIn && <Skeleton h={320} />
      )}
      <Suspense fallback={null}>
        {sharing && <ShareDialog item={item.data} workspace={workspace} onClose={() => setSharing(false)} />}
        {renaming && (
          <NameDialog
            title="Rename document"
            label="Document name"
            submitLabel="Rename"
            initial={item.data.name}
            onClose={() => setRenaming(false)}
            onSubmit={(name) => m.rename.mutateAsync({ id: documentId, name })}
          />
        )}
      </Suspense>
    </Stack>
  );
}
