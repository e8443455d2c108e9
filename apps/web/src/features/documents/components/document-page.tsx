import { Anchor, Breadcrumbs, Skeleton, Stack, Title } from '@mantine/core';
import type { TWorkspace } from '@cabinet/contracts';
import { Link } from 'react-router';
import { useMe } from '../../auth/api/use-me.ts';
import { useAncestors, useItem } from '../../items/api/use-items.ts';
import { canEdit } from '../../items/components/item-actions.tsx';
import { folderTitle, useItemLinks } from '../../items/hooks/use-item-links.ts';
import { DocumentEditor } from './document-editor.tsx';

/** `/w/:ws/d/:docId`: a document, its place in the tree, and the live editor. */
export default function DocumentPage({ workspace, documentId }: { workspace: TWorkspace; documentId: string }) {
  const item = useItem(documentId);
  const ancestors = useAncestors(documentId);
  const me = useMe();
  const linkTo = useItemLinks(workspace);
  if (item.isPending || me.isPending) return <Skeleton h={320} />;
  if (!item.data || !me.data) return <Title order={1}>Document not found</Title>;
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
      <Title order={1}>{item.data.name}</Title>
      <DocumentEditor workspaceId={workspace.id} documentId={documentId} title={item.data.name} editable={canEdit(item.data)} me={{ id: me.data.user.id, name: me.data.user.name || me.data.user.email }} />
    </Stack>
  );
}
