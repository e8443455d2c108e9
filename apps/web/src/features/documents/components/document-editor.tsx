import { Avatar, Group, Paper, Text, Tooltip } from '@mantine/core';
import { IconCloudCheck, IconCloudOff, IconEye, IconLoader2, IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import Collaboration from '@tiptap/extension-collaboration';
import CollaborationCaret from '@tiptap/extension-collaboration-caret';
import { EditorContent, useEditor } from '@tiptap/react';
import { Placeholder } from '@tiptap/extensions';
import StarterKit from '@tiptap/starter-kit';
import { useCollaboration, type SyncState } from '../hooks/use-collaboration.ts';
import './document-editor.css';

const STATE_LABEL: Record<SyncState, { text: string; icon: ReactNode }> = {
  connecting: { text: 'Connecting…', icon: <IconLoader2 aria-hidden size={16} /> },
  saving: { text: 'Saving…', icon: <IconLoader2 aria-hidden size={16} /> },
  saved: { text: 'Saved', icon: <IconCloudCheck aria-hidden size={16} color="var(--mantine-color-green-7)" /> },
  offline: { text: 'Offline — changes will sync', icon: <IconCloudOff aria-hidden size={16} color="var(--mantine-color-orange-7)" /> },
  refused: { text: 'This document cannot be opened', icon: <IconLock aria-hidden size={16} color="var(--mantine-color-red-7)" /> },
};

/** A caret colour for a person, the same on every screen (`#rrggbb`, as the caret extension needs). */
export function colorFor(id: string): string {
  let h = 0;
  for (const c of id) h = (h * 31 + c.charCodeAt(0)) % 360;
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    const v = 0.45 - 0.35 * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(v * 255).toString(16).padStart(2, '0');
  };
  return `#${f(0)}${f(8)}${f(4)}`;
}

/** The editor of one document, shared live with everyone who has it open. */
export function DocumentEditor({ documentId, title, editable, me }: { documentId: string; title: string; editable: boolean; me: { id: string; name: string } }) {
  const { document, provider, state, people } = useCollaboration(documentId);
  const editor = useEditor(
    {
      editable,
      extensions: [
        // Undo is the collaboration extension's: it undoes your own changes only.
        StarterKit.configure({ undoRedo: false }),
        Placeholder.configure({ placeholder: editable ? 'Write something, or type # for a heading, - for a list…' : '' }),
        Collaboration.configure({ document }),
        CollaborationCaret.configure({ provider, user: { name: me.name, color: colorFor(me.id) } }),
      ],
      editorProps: { attributes: { 'aria-label': `Content of ${title}`, class: 'cabinet-document' } },
    },
    [document, provider, editable],
  );
  const status = STATE_LABEL[state];
  return (
    <>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap={6} aria-label="People here" role="group">
          {people.map((p) => (
            <Tooltip key={p.clientId} label={p.name}>
              <Avatar size="sm" radius="xl" role="img" aria-label={p.name} style={{ border: `2px solid ${p.color}` }}>
                {p.name.slice(0, 1).toUpperCase()}
              </Avatar>
            </Tooltip>
          ))}
        </Group>
        <Group gap="md">
          {!editable && (
            <Group gap={4}>
              <IconEye aria-hidden size={16} />
              <Text size="sm">View only</Text>
            </Group>
          )}
          <Group gap={4} role="status">
            {status.icon}
            <Text size="sm">{status.text}</Text>
          </Group>
        </Group>
      </Group>
      <Paper withBorder p="lg" radius="md" mih={300}>
        {state === 'refused' ? <Text c="dimmed">You do not have access to this document, or it no longer exists.</Text> : <EditorContent editor={editor} />}
      </Paper>
    </>
  );
}
