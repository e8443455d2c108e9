import { filesApi, urlOf, type TItemAbilities } from '@cabinet/contracts';
import { Avatar, Badge, Button, Drawer, Group, Paper, Text, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconCloudCheck, IconCloudOff, IconEye, IconHistory, IconLoader2, IconLock, IconMessageCircle, IconMessagePlus } from '@tabler/icons-react';
import type { Editor } from '@tiptap/core';
import { EditorContent, useEditor } from '@tiptap/react';
import { lazy, Suspense, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { useUploader } from '../../uploads/hooks/use-uploader.ts';
import { useCommentThreads } from '../api/use-comments.ts';
import { colorFor } from '../editor/caret-color.ts';
import { anchorForSelection, showCommentAnchors, threadRange } from '../editor/comment-anchors.ts';
import { editorExtensions } from '../editor/extensions.ts';
import { useCollaboration, type SyncState } from '../hooks/use-collaboration.ts';
import type { NewThread } from './comments-panel.tsx';
import { EditorToolbar } from './editor-toolbar.tsx';
import { useReturnFocus } from '../../../components/ui/use-return-focus.ts';
import '../../../components/ui/code-colours.css';
import './document-editor.css';

// What the first paint of a document does not need comes after it, when asked for (ADR 0047).
const CommentsPanel = lazy(() => import('./comments-panel.tsx').then((m) => ({ default: m.CommentsPanel })));
const HistoryDrawer = lazy(() => import('./history-drawer.tsx').then((m) => ({ default: m.HistoryDrawer })));
const ImageDialog = lazy(() => import('./image-dialog.tsx').then((m) => ({ default: m.ImageDialog })));
const LinkDialog = lazy(() => import('./link-dialog.tsx').then((m) => ({ default: m.LinkDialog })));

const STATE_LABEL: Record<SyncState, { text: string; icon: ReactNode }> = {
  connecting: { text: 'Connecting…', icon: <IconLoader2 aria-hidden size={16} /> },
  saving: { text: 'Saving…', icon: <IconLoader2 aria-hidden size={16} /> },
  saved: { text: 'Saved', icon: <IconCloudCheck aria-hidden size={16} color="var(--mantine-color-green-7)" /> },
  offline: { text: 'Offline — changes will sync', icon: <IconCloudOff aria-hidden size={16} color="var(--mantine-color-orange-7)" /> },
  refused: { text: 'This document cannot be opened', icon: <IconLock aria-hidden size={16} color="var(--mantine-color-red-7)" /> },
};

// A text box by its role too: a labelled element must have one (the label names what it is the content of).
const editorAttributes = (title: string, editable: boolean) => ({
  role: 'textbox',
  'aria-multiline': 'true',
  ...(editable ? {} : { 'aria-readonly': 'true' }),
  'aria-label': `Content of ${title}`,
  class: 'cabinet-document cabinet-code-colours',
});

export interface DocumentEditorProps {
  workspaceId: string;
  documentId: string;
  title: string;
  /** What the caller may do with the document: edit its text, comment, delete others' comments, restore revisions. */
  abilities: TItemAbilities;
  me: { id: string; name: string };
  /** The person's access to the document changed while it was open. */
  onAccessChange?: (readOnly: boolean) => void;
  /** The state of the snapshot the page shows in the editor's place (ADR 0052), if it shows one. */
  shownState?: string;
  /** Called once the editor holds the document (in the same task), while the page shows a snapshot in its place. */
  onShown?: () => void;
}

/** How long the page may show the snapshot in the editor's place at most, once the editor is built. */
const SHOWN_WITHIN_MS = 5000;

/** Whether the editor shows the whole shared document: y-prosemirror makes a block of each of the shared fragment's children. */
const holdsDocument = (editor: Editor, fragment: { length: number }) => fragment.length > 0 && editor.state.doc.childCount === fragment.length;

/** The editor of one document, shared live with everyone who has it open, with its comments beside it. */
export function DocumentEditor({ workspaceId, documentId, title, abilities, me, onAccessChange, shownState, onShown }: DocumentEditorProps) {
  const editable = abilities.edit;
  const editorRef = useRef<Editor | null>(null);
  const { document, provider, state, people } = useCollaboration(documentId, {
    keepOffline: editable,
    userId: me.id,
    onAccessChange,
    shownState,
    snapshot: (shared) => {
      const ed = editorRef.current;
      return ed && !ed.isDestroyed && holdsDocument(ed, shared.getXmlFragment('default')) ? { html: ed.getHTML() } : undefined;
    },
  });
  const [asking, setAsking] = useState<'link' | 'image' | 'history'>();
  const fileInput = useRef<HTMLInputElement>(null);
  // "File" in the slash menu opens the file picker at once, while the keypress still counts as the person's doing.
  const ask = useCallback((what: 'image' | 'file') => (what === 'file' ? fileInput.current?.click() : setAsking(what)), []);
  // `?thread=`: opened at a comment thread (from a notification).
  const [search] = useSearchParams();
  const threadParam = search.get('thread') ?? undefined;
  const [commentsOpen, setCommentsOpen] = useState(!!threadParam);
  const [draft, setDraft] = useState<NewThread>();
  const [activeThread, setActiveThread] = useState<string | undefined>(threadParam);
  // Another thread asked for while the document is open: it opens there too.
  const [askedThread, setAskedThread] = useState(threadParam);
  if (threadParam !== askedThread) {
    setAskedThread(threadParam);
    if (threadParam) {
      setActiveThread(threadParam);
      setCommentsOpen(true);
    }
  }
  const wide = useMediaQuery('(min-width: 64em)');
  const threads = useCommentThreads(documentId);

  const startComment = useCallback(
    (ed: Editor) => {
      if (!abilities.comment) return;
      const anchor = anchorForSelection(ed);
      if (!anchor) return void notifications.show({ message: 'Select the text you want to comment on first.' });
      setDraft(anchor);
      setCommentsOpen(true);
    },
    [abilities.comment],
  );
  const selectThread = useCallback((id: string) => {
    setActiveThread(id);
    setCommentsOpen(true);
  }, []);

  const uploader = useUploader();
  /**
   * Files from this computer go into the document as its attachments, then into the text where
   * they were put: an image shows, any other file is a link that downloads it.
   */
  const insertFiles = useCallback(
    (ed: Editor, files: File[], at?: number) => {
      for (const file of files) {
        uploader.addAttachment(workspaceId, documentId, file).then(
          (id) => {
            const content = file.type.startsWith('image/')
              ? [{ type: 'image', attrs: { src: urlOf(filesApi.content, { id }), alt: file.name.replace(/\.[^.]*$/, '') } }]
              : [
                  { type: 'text', text: file.name, marks: [{ type: 'link', attrs: { href: urlOf(filesApi.content, { id }, { download: '1' }) } }] },
                  { type: 'text', text: ' ' },
                ];
            if (ed.isDestroyed) return;
            if (at !== undefined) ed.chain().insertContentAt(Math.min(at, ed.state.doc.content.size), content).run();
            else ed.chain().focus().insertContent(content).run();
          },
          (error: Error) => notifications.show({ color: 'red', title: `“${file.name}” was not added`, message: error.message }),
        );
      }
    },
    [uploader, workspaceId, documentId],
  );
  const editor = useEditor(
    {
      editable,
      extensions: editorExtensions({
        workspaceId,
        document,
        provider,
        editable,
        me: { name: me.name, color: colorFor(me.id) },
        onAsk: ask,
        comments: { select: selectThread, comment: startComment },
        onFiles: insertFiles,
      }),
      editorProps: { attributes: editorAttributes(title, editable) },
    },
    [document, provider, editable],
  );
  useEffect(() => {
    editorRef.current = editor;
  });
  // Told once it holds the whole document; once the server or this browser's copy has answered
  // (an empty document, access refused, no network); or after a few seconds in any case, so that
  // the page never keeps showing the snapshot with the editor's state out of sight.
  useEffect(() => {
    if (!onShown || !editor) return;
    const fragment = document.getXmlFragment('default');
    const check = () => {
      if (!holdsDocument(editor, fragment)) return;
      editor.off('transaction', check);
      onShown();
    };
    if (state !== 'connecting') return onShown();
    editor.on('transaction', check);
    check();
    const limit = setTimeout(onShown, SHOWN_WITHIN_MS);
    return () => {
      clearTimeout(limit);
      editor.off('transaction', check);
    };
  }, [onShown, editor, document, state]);
  // A renamed document's editor is named anew without being rebuilt.
  useEffect(() => {
    editor?.setOptions({ editorProps: { attributes: editorAttributes(title, editable) } });
  }, [editor, title, editable]);
  // The threads' text is marked in the document, the picked one more strongly.
  useEffect(() => {
    if (editor && !editor.isDestroyed) showCommentAnchors(editor, threads.data ?? [], commentsOpen ? activeThread : undefined);
  }, [editor, threads.data, activeThread, commentsOpen]);

  const activate = (id: string) => {
    setActiveThread(id);
    const range = editor && threadRange(editor, id);
    if (range && editor) (editor.view.domAtPos(range.from).node as HTMLElement).parentElement?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  };

  const status = STATE_LABEL[state];
  const close = () => {
    setAsking(undefined);
    editor?.commands.focus();
  };
  const openThreads = threads.data?.filter((t) => !t.resolvedAt).length ?? 0;
  const panel = (
    <Suspense fallback={null}>
      <CommentsPanel
        workspaceId={workspaceId}
        documentId={documentId}
        me={me.id}
        abilities={abilities}
        draft={draft}
        onDraftDone={() => setDraft(undefined)}
        active={activeThread}
        onActivate={activate}
      />
    </Suspense>
  );
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
        <Group gap="sm">
          {!editable && (
            <Group gap={4}>
              <IconEye aria-hidden size={16} />
              <Text size="sm">{abilities.comment ? 'Can comment' : 'View only'}</Text>
            </Group>
          )}
          <Group gap={4} role="status">
            {status.icon}
            <Text size="sm">{status.text}</Text>
          </Group>
          <Button
            variant={commentsOpen ? 'light' : 'subtle'}
            size="compact-sm"
            leftSection={<IconMessageCircle aria-hidden size={16} />}
            rightSection={
              openThreads ? (
                <Badge size="xs" circle>
                  {openThreads}
                </Badge>
              ) : undefined
            }
            aria-pressed={commentsOpen}
            onClick={() => setCommentsOpen((o) => !o)}
          >
            Comments
          </Button>
          <Button variant="subtle" size="compact-sm" leftSection={<IconHistory aria-hidden size={16} />} onClick={() => setAsking('history')}>
            History
          </Button>
        </Group>
      </Group>
      <Group align="flex-start" wrap="nowrap" gap="md">
        <Paper withBorder radius="md" mih={300} style={{ flex: 1, minWidth: 0 }}>
          {editor && state !== 'refused' && (editable || abilities.comment) && (
            <Paper px="xs" py={4} radius={0} style={{ borderBottom: '1px solid var(--mantine-color-default-border)', position: 'sticky', top: 0, zIndex: 2 }}>
              {editable ? (
                <EditorToolbar
                  editor={editor}
                  onLink={() => setAsking('link')}
                  onImage={() => setAsking('image')}
                  onFile={() => fileInput.current?.click()}
                  onComment={() => startComment(editor)}
                />
              ) : (
                <Group role="toolbar" aria-label="Document tools">
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    leftSection={<IconMessagePlus aria-hidden size={16} />}
                    onMouseDown={(e) => e.preventDefault()}
                    onClick={() => startComment(editor)}
                  >
                    Comment
                  </Button>
                </Group>
              )}
            </Paper>
          )}
          <div style={{ padding: 'var(--mantine-spacing-lg)' }}>
            {state === 'refused' ? <Text c="dimmed">You do not have access to this document, or it no longer exists.</Text> : <EditorContent editor={editor} />}
          </div>
        </Paper>
        {commentsOpen && wide && (
          <Paper
            withBorder
            radius="md"
            p="sm"
            w={340}
            style={{
              flexShrink: 0,
              position: 'sticky',
              top: 'calc(var(--app-shell-header-height, 56px) + 8px)',
              maxHeight: 'calc(100vh - 96px)',
              overflowY: 'auto',
            }}
          >
            {panel}
          </Paper>
        )}
      </Group>
      {commentsOpen && !wide && <CommentsDrawer onClose={() => setCommentsOpen(false)}>{panel}</CommentsDrawer>}
      <input
        ref={fileInput}
        type="file"
        multiple
        hidden
        aria-label="Files to attach"
        onChange={(e) => {
          if (editor && e.currentTarget.files) insertFiles(editor, [...e.currentTarget.files]);
          e.currentTarget.value = '';
        }}
      />
      <Suspense fallback={null}>
        {editor && asking === 'link' && (
          <LinkDialog
            initial={(editor.getAttributes('link').href as string | undefined) ?? ''}
            onApply={(href) => {
              // With nothing selected the address itself becomes the link's text.
              if (editor.state.selection.empty && !editor.isActive('link'))
                editor
                  .chain()
                  .focus()
                  .insertContent({ type: 'text', text: href, marks: [{ type: 'link', attrs: { href } }] })
                  .run();
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
        {editor && asking === 'history' && <HistoryDrawer documentId={documentId} editor={editor} canRestore={abilities.restoreRevision} onClose={close} />}
        {editor && asking === 'image' && (
          <ImageDialog
            onUpload={(file) => {
              setAsking(undefined);
              insertFiles(editor, [file]);
            }}
            onInsert={(image) => {
              editor.chain().focus().setImage(image).run();
              setAsking(undefined);
            }}
            onClose={close}
          />
        )}
      </Suspense>
    </>
  );
}

/** The comments on a narrow screen, over the document; mounted while open, so closing gives the keyboard back to its opener. */
function CommentsDrawer({ onClose, children }: { onClose: () => void; children: ReactNode }) {
  useReturnFocus();
  return (
    <Drawer opened onClose={onClose} position="bottom" size="80%" title="Comments">
      {children}
    </Drawer>
  );
}
