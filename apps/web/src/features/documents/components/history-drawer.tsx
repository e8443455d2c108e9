import { Alert, Button, Drawer, Group, Skeleton, Stack, Text, UnstyledButton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft, IconHistory, IconRestore } from '@tabler/icons-react';
import { documentExtensions } from '@cabinet/doc-schema';
import type { TRevision } from '@cabinet/contracts';
import type { Editor, JSONContent } from '@tiptap/core';
import { generateHTML } from '@tiptap/html';
import { useMemo, useState } from 'react';
import { formatDateTime } from '../../../lib/format.ts';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { usePublicConfig } from '../../auth/api/use-me.ts';
import { useRestoreRevision, useRevision, useRevisions } from '../api/use-revisions.ts';
import { compareDocuments, type ComparedBlock } from '../editor/compare.ts';
import '../../../components/ui/diff.css';

const schema = documentExtensions();
/** HTML of blocks made from the schema's JSON: the schema escapes text and drops what it does not know. */
const html = (blocks: JSONContent[]) => generateHTML({ type: 'doc', content: blocks }, schema);

const describe = (r: TRevision) =>
  r.restoredFrom
    ? `Restored the revision of ${formatDateTime(r.restoredFrom)}`
    : r.authors.length
      ? `Edited by ${r.authors.map((a) => a.name).join(', ')}`
      : 'Edited';

/** What changed from the revision to the document now: added since green, removed since red and struck through (components/ui/diff.css). */
function ComparedView({ blocks }: { blocks: ComparedBlock[] }) {
  return (
    <div className="cabinet-document cabinet-compare" aria-label="Revision compared with the current document">
      {blocks.map((b, i) =>
        b.kind === 'changed' ? (
          <div key={i} className="compare-changed">
            {b.words.map((w, k) =>
              w.is === 'kept' ? <span key={k}>{w.text}</span> : w.is === 'added' ? <ins key={k}>{w.text}</ins> : <del key={k}>{w.text}</del>,
            )}
          </div>
        ) : b.kind === 'added' ? (
          <ins key={i} className="compare-block" dangerouslySetInnerHTML={{ __html: html([b.block]) }} />
        ) : b.kind === 'removed' ? (
          <del key={i} className="compare-block" dangerouslySetInnerHTML={{ __html: html([b.block]) }} />
        ) : (
          <div key={i} dangerouslySetInnerHTML={{ __html: html([b.block]) }} />
        ),
      )}
    </div>
  );
}

/** A document's revisions: pick one to see it against the document as it is now, and (managers) bring it back. */
export function HistoryDrawer({ documentId, editor, canRestore, onClose }: { documentId: string; editor: Editor; canRestore: boolean; onClose: () => void }) {
  const revisions = useRevisions(documentId);
  const config = usePublicConfig();
  const [selected, setSelected] = useState<string>();
  const revision = useRevision(documentId, selected);
  const restore = useRestoreRevision(documentId);
  // Restoring replaces the document for everyone editing it: asked first.
  const [asking, setAsking] = useState(false);
  const compared = useMemo(
    () => (revision.data ? compareDocuments(revision.data.content as JSONContent, editor.getJSON()) : undefined),
    [revision.data, editor],
  );
  const changes = compared?.filter((b) => b.kind !== 'same').length ?? 0;

  return (
    <Drawer
      opened
      onClose={onClose}
      position="right"
      size="xl"
      title={
        <Group gap="xs">
          <IconHistory aria-hidden size={20} />
          <Text fw={600}>Revision history</Text>
        </Group>
      }
    >
      {!selected ? (
        revisions.isPending ? (
          <Skeleton h={120} />
        ) : !revisions.data?.length ? (
          <Text c="dimmed" size="sm">
            No revisions yet. One is kept after {config.data?.documentRevisionMinutes ?? 10} minutes of editing, and whenever the last person editing leaves.
          </Text>
        ) : (
          <Stack component="ul" gap={4} aria-label="Revisions" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {revisions.data.map((r) => (
              <li key={r.id}>
                <UnstyledButton onClick={() => setSelected(r.id)} p="xs" w="100%" className="revision-row">
                  <Text size="sm" fw={500}>
                    {formatDateTime(r.createdAt)}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {describe(r)}
                  </Text>
                </UnstyledButton>
              </li>
            ))}
          </Stack>
        )
      ) : (
        <Stack>
          <Group justify="space-between" wrap="wrap">
            <Button variant="subtle" leftSection={<IconArrowLeft aria-hidden size={16} />} onClick={() => setSelected(undefined)}>
              All revisions
            </Button>
            {canRestore && revision.data && (
              <Button leftSection={<IconRestore aria-hidden size={16} />} onClick={() => setAsking(true)}>
                Restore this revision
              </Button>
            )}
          </Group>
          {revision.isPending || !compared ? (
            <Skeleton h={200} />
          ) : (
            <>
              <div>
                <Text fw={600}>{formatDateTime(revision.data!.createdAt)}</Text>
                <Text size="sm" c="dimmed">
                  {describe(revision.data!)}
                </Text>
              </div>
              <Alert variant="light" p="xs">
                <Text size="sm">
                  {changes === 0 ? (
                    'This revision is the same as the document now.'
                  ) : (
                    <>
                      From this revision to the document now: <ins className="legend">green</ins> text was added since,{' '}
                      <del className="legend">red, struck-out</del> text was removed since.
                    </>
                  )}
                </Text>
              </Alert>
              <ComparedView blocks={compared} />
            </>
          )}
        </Stack>
      )}
      {asking && revision.data && (
        <ConfirmDialog
          title={`Restore the revision of ${formatDateTime(revision.data.createdAt)}?`}
          confirmLabel="Restore"
          color="blue"
          pending={restore.isPending}
          onClose={() => setAsking(false)}
          onConfirm={() =>
            restore.mutate(revision.data.id, {
              onSuccess: () => {
                notifications.show({ color: 'green', message: `Restored the revision of ${formatDateTime(revision.data.createdAt)}` });
                setAsking(false);
                onClose();
              },
              onError: (error) => notifications.show({ color: 'red', message: error.message }),
            })
          }
        >
          <Text size="sm" fw={500}>
            {revision.data.label ? `“${revision.data.label}” · ` : ''}
            {describe(revision.data)}
          </Text>
          <Text size="sm">
            The document becomes what it was then, for everyone editing it. What it is now is kept in the history, so you can bring it back.
          </Text>
        </ConfirmDialog>
      )}
    </Drawer>
  );
}
