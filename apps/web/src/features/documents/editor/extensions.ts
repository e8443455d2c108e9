import { documentExtensions } from '@cabinet/doc-schema';
import { Extension, type AnyExtension, type Editor, type Range } from '@tiptap/core';
import type { MentionNodeAttrs } from '@tiptap/extension-mention';
import Collaboration from '@tiptap/extension-collaboration';
import CollaborationCaret from '@tiptap/extension-collaboration-caret';
import CodeBlockLowlight from '@tiptap/extension-code-block-lowlight';
import { Placeholder } from '@tiptap/extensions';
import type { HocuspocusProvider } from '@hocuspocus/provider';
import Suggestion from '@tiptap/suggestion';
import type { Node as PMNode } from '@tiptap/pm/model';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';
import { createLowlight } from 'lowlight';
import type * as Y from 'yjs';
import { GRAMMARS, grammarNamed } from '../../../components/ui/grammars.ts';
import { findMembers } from '../api/members.ts';
import { matchBlocks, type Block } from './blocks.tsx';
import { commentAnchors } from './comment-anchors.ts';
import { suggestionPopup } from './suggestion-popup.ts';

// No grammar up front: each comes when a code block of its language is shown (codeLanguages below).
const lowlight = createLowlight();
/** The languages a code block can be set to, by the names highlight.js knows them. */
export const CODE_LANGUAGES = Object.keys(GRAMMARS).sort();

/** Each grammar asked for, as it loads (a failed one leaves its blocks plain). */
const loading = new Map<string, Promise<boolean>>();
const loadGrammar = (name: string) => {
  let loaded = loading.get(name);
  if (!loaded) {
    loaded = GRAMMARS[name]!().then(
      (grammar) => {
        lowlight.register(name, grammar.default);
        return true;
      },
      () => false,
    );
    loading.set(name, loaded);
  }
  return loaded;
};

/**
 * A code block's grammar is loaded the first time a block in its language is in the document; once
 * it is, the blocks in that language are highlighted again (an unchanged attribute set on them is
 * the change the highlighter looks for; it changes nothing in the shared document).
 */
const codeLanguages = Extension.create({
  name: 'codeLanguages',
  addProseMirrorPlugins() {
    // The grammars this editor waits for.
    const awaited = new Set<string>();
    const wanted = (doc: PMNode) => {
      const names = new Set<string>();
      doc.descendants((node) => {
        if (node.type.name === 'codeBlock' && typeof node.attrs.language === 'string' && !lowlight.registered(node.attrs.language)) {
          const name = grammarNamed(node.attrs.language);
          if (name && !awaited.has(name)) names.add(name);
        }
        return !node.isTextblock;
      });
      return names;
    };
    const rehighlight = (view: EditorView, name: string) => {
      if (view.isDestroyed) return;
      const tr = view.state.tr;
      view.state.doc.descendants((node, pos) => {
        if (node.type.name === 'codeBlock' && typeof node.attrs.language === 'string' && grammarNamed(node.attrs.language) === name)
          tr.setNodeMarkup(pos, undefined, node.attrs);
        return !node.isTextblock;
      });
      if (tr.docChanged) view.dispatch(tr.setMeta('addToHistory', false));
    };
    const load = (view: EditorView, doc: PMNode) => {
      for (const name of wanted(doc)) {
        awaited.add(name);
        void loadGrammar(name).then((loaded) => loaded && rehighlight(view, name));
      }
    };
    return [
      new Plugin({
        key: new PluginKey('codeLanguages'),
        view: (view) => {
          load(view, view.state.doc);
          return {
            update: (v, before) => {
              if (v.state.doc !== before.doc) load(v, v.state.doc);
            },
          };
        },
      }),
    ];
  },
});

/** A person offered after `@`: the mention's attributes, and their email to tell namesakes apart. */
type MentionItem = MentionNodeAttrs & { email?: string };

/** Typing `/` opens a menu of blocks; picking one replaces the `/…` with it. */
function slashCommands(onAsk: (what: 'image' | 'file') => void) {
  return Extension.create({
    name: 'slashCommands',
    addProseMirrorPlugins() {
      return [
        Suggestion<Block>({
          editor: this.editor,
          pluginKey: new PluginKey('slashCommands'),
          char: '/',
          allowSpaces: false,
          items: ({ query }) => matchBlocks(query),
          command: ({ editor, range, props: block }) => {
            block.run(editor.chain().focus().deleteRange(range)).run();
            if (block.asks) onAsk(block.asks);
          },
          render: suggestionPopup<Block>({ label: 'Insert a block', empty: 'No block by that name' }, (b) => ({
            key: b.id,
            title: b.title,
            description: b.description,
            icon: b.icon,
          })),
        }),
      ];
    },
  });
}

export interface EditorSetup {
  workspaceId: string;
  document: Y.Doc;
  provider: HocuspocusProvider;
  me: { name: string; color: string };
  editable: boolean;
  onAsk: (what: 'image' | 'file') => void;
  /** A thread's marked text was clicked; Ctrl+Alt+M asks to comment on the selection. */
  comments: { select: (threadId: string) => void; comment: (editor: Editor) => void };
  /** Files dropped or pasted into the document (to become its attachments), and where they landed. */
  onFiles: (editor: Editor, files: File[], at?: number) => void;
}

/** Files dropped or pasted into an editable document are handed to `onFiles` instead of being opened by the browser. */
function fileDrops(onFiles: EditorSetup['onFiles']) {
  return Extension.create({
    name: 'fileDrops',
    addProseMirrorPlugins() {
      const editor = this.editor;
      const files = (data: DataTransfer | null) => (editor.isEditable ? [...(data?.files ?? [])] : []);
      return [
        new Plugin({
          key: new PluginKey('fileDrops'),
          props: {
            handlePaste: (_view, event) => {
              const pasted = files(event.clipboardData);
              if (pasted.length) onFiles(editor, pasted);
              return pasted.length > 0;
            },
            handleDrop: (view, event) => {
              const dropped = files(event.dataTransfer);
              if (!dropped.length) return false;
              event.preventDefault();
              onFiles(editor, dropped, view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos);
              return true;
            },
          },
        }),
      ];
    },
  });
}

/** The browser's editor: the shared document schema, plus what only a screen needs — live carets, highlighting, menus. */
export function editorExtensions(s: EditorSetup): AnyExtension[] {
  return [
    ...documentExtensions({
      codeBlock: CodeBlockLowlight.configure({ lowlight, defaultLanguage: null }),
      mentionSuggestion: {
        items: async ({ query }: { query: string }) =>
          (await findMembers(s.workspaceId, query)).map((m) => ({ id: m.userId, label: m.name || m.email, email: m.email })),
        // Only the schema's attributes go into the document.
        command: ({ editor, range, props }: { editor: Editor; range: Range; props: MentionItem }) => {
          editor
            .chain()
            .focus()
            .insertContentAt(range, [
              { type: 'mention', attrs: { id: props.id, label: props.label } },
              { type: 'text', text: ' ' },
            ])
            .run();
        },
        render: suggestionPopup<MentionItem>({ label: 'Mention someone', empty: 'Nobody by that name' }, (m) => ({
          key: m.id ?? '',
          title: m.label ?? '',
          description: m.email,
        })),
      },
    }),
    Placeholder.configure({ placeholder: s.editable ? 'Write something, or type / for blocks and @ to mention someone…' : '' }),
    Collaboration.configure({ document: s.document }),
    CollaborationCaret.configure({ provider: s.provider, user: s.me }),
    slashCommands(s.onAsk),
    commentAnchors(s.comments),
    fileDrops(s.onFiles),
    codeLanguages,
  ];
}
