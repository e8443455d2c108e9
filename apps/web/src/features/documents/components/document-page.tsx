import { Anchor, Breadcrumbs, Group, Skeleton, Stack, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { TWorkspace } from '@cabinet/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { useMe } from '../../auth/api/use-me.ts';
import { useAncestors, useItem } from '../../items/api/use-items.ts';
import { useItemMutations } from '../../items/api/use-item-mutations.ts';
import { NameDialog } from '../../items/components/name-dialog.tsx';
import { folderTitle, useItemLinks } from '../../items/hooks/use-item-links.ts';
import { DocumentEditor } from './document-editor.tsx';
import { DocumentMenu } from './document-menu.tsx';
import { ShareDialog } from '../../sharing/components/share-dialog.tsx';

/** `/w/:ws/d/:docId`: a document, its place in the tree, and the live editor. */
export default function DocumentPage({ workspace, documentId }: { workspace: TWorkspace; documentId: string }) {
  const item = useItem(documentId);
  const ancestors = useAncestors(documentId);
  const me = useMe();
  const linkTo = useItemLinks(workspace);
  const m = useItemMutations(workspace.id);
  const [renaming, setRenaming] = useState(false);
  const [sharing, setSharing] = useState(false);
  if (item.isPending || me.isPending) return <Skeleton h={320} />;
  if (!item.data || !me.data) return <Title order={1}>Document not found</Title>;
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
      <nav aria-label="Folder path">
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
      <DocumentEditor
        workspaceId={workspace.id}
        documentId={documentId}
        title={item.data.name}
        abilities={abilities}
        me={{ id: me.data.user.id, name: me.data.user.name || me.data.user.email }}
        onAccessChange={accessChanged}
      />
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
    </Stack>
  );
}
