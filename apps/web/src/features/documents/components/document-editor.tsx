import { Avatar, Button, Group, Paper, Text, Tooltip } from '@mantine/core';
import { IconCloudCheck, IconCloudOff, IconEye, IconHistory, IconLoader2, IconLock } from '@tabler/icons-react';
import { EditorContent, useEditor } from '@tiptap/react';
import { useEffect, useState, type ReactNode } from 'react';
import { editorExtensions } from '../editor/extensions.ts';
import { useCollaboration, type SyncState } from '../hooks/use-collaboration.ts';
import { EditorToolbar } from './editor-toolbar.tsx';
import { HistoryDrawer } from './history-drawer.tsx';
import { ImageDialog } from './image-dialog.tsx';
import { LinkDialog } from './link-dialog.tsx';
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
export function DocumentEditor(props: { workspaceId: string; documentId: string; title: string; editable: boolean; canRestore: boolean; me: { id: string; name: string } }) {
  const { workspaceId, documentId, title, editable, me } = props;
  const { document, provider, state, people } = useCollaboration(documentId, { keepOffline: editable, userId: me.id });
  const [asking, setAsking] = useState<'link' | 'image' | 'history'>();
  const editor = useEditor(
    {
      editable,
      extensions: editorExtensions({ workspaceId, document, provider, editable, me: { name: me.name, color: colorFor(me.id) }, onAsk: setAsking }),
      editorProps: { attributes: { 'aria-label': `Content of ${title}`, class: 'cabinet-document' } },
    },
    [document, provider, editable],
  );
  // A renamed document's editor is named anew without being rebuilt.
  useEffect(() => {
    editor?.setOptions({ editorProps: { attributes: { 'aria-label': `Content of ${title}`, class: 'cabinet-document' } } });
  }, [editor, title]);
  const status = STATE_LABEL[state];
  const close = () => {
    setAsking(undefined);
    editor?.commands.focus();
  };
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
          <Button variant="subtle" size="compact-sm" leftSection={<IconHistory aria-hidden size={16} />} onClick={() => setAsking('history')}>
            History
          </Button>
        </Group>
      </Group>
      <Paper withBorder radius="md" mih={300}>
        {editable && editor && state !== 'refused' && (
          <Paper px="xs" py={4} radius={0} style={{ borderBottom: '1px solid var(--mantine-color-default-border)', position: 'sticky', top: 0, zIndex: 2 }}>
            <EditorToolbar editor={editor} onLink={() => setAsking('link')} onImage={() => setAsking('image')} />
          </Paper>
        )}
        <div style={{ padding: 'var(--mantine-spacing-lg)' }}>
          {state === 'refused' ? <Text c="dimmed">You do not have access to this document, or it no longer exists.</Text> : <EditorContent editor={editor} />}
        </div>
      </Paper>
      {editor && asking === 'link' && (
        <LinkDialog
          initial={(editor.getAttributes('link').href as string | undefined) ?? ''}
          onApply={(href) => {
            // With nothing selected the address itself becomes the link's text.
            if (editor.state.selection.empty && !editor.isActive('link')) editor.chain().focus().insertContent({ type: 'text', text: href, marks: [{ type: 'link', attrs: { href } }] }).run();
            else editor.chain().focus().extendMarkRange('link').setLink({ href }).run();
            setAsking(undefined);
          }}
          onRemove={() => {
            editor.chain().focus().extendMarkRange('link').unsetLink().run();
            setAsking(undefined);
          }}
          onClose={close}
        />
      )}
      {editor && asking === 'history' && <HistoryDrawer documentId={documentId} editor={editor} canRestore={props.canRestore} onClose={close} />}
      {editor && asking === 'image' && (
        <ImageDialog
          onInsert={(image) => {
            editor.chain().focus().setImage(image).run();
            setAsking(undefined);
          }}
          onClose={close}
        />
      )}
    </>
  );
}
