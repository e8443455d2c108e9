import type { TCommentThread } from '@cabinet/contracts';
import { Extension, type Editor } from '@tiptap/core';
import { Plugin, PluginKey, type EditorState } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import { absolutePositionToRelativePosition, relativePositionToAbsolutePosition, ySyncPluginKey } from '@tiptap/y-tiptap';
import * as Y from 'yjs';

interface Anchored {
  id: string;
  from: number;
  to: number;
}

interface AnchorsState {
  threads: TCommentThread[];
  active: string | undefined;
}

const key = new PluginKey<AnchorsState>('commentAnchors');

/** The Yjs binding of the editor: the shared document, its fragment and the node mapping. */
function binding(state: EditorState) {
  return ySyncPluginKey.getState(state)?.binding as
    { doc: Y.Doc; type: Y.XmlFragment; mapping: Parameters<typeof relativePositionToAbsolutePosition>[3] } | undefined;
}

/** Where each open thread's text is now: its Yjs relative positions read against the current document. */
function anchoredRanges(state: EditorState): Anchored[] {
  const b = binding(state);
  const s = key.getState(state);
  if (!b || !s) return [];
  return s.threads.flatMap((t) => {
    if (!t.anchor || t.resolvedAt) return [];
    const from = relativePositionToAbsolutePosition(b.doc, b.type, Y.createRelativePositionFromJSON(t.anchor.start), b.mapping);
    const to = relativePositionToAbsolutePosition(b.doc, b.type, Y.createRelativePositionFromJSON(t.anchor.end), b.mapping);
    return from !== null && to !== null && to > from ? [{ id: t.id, from, to }] : [];
  });
}

/** The selection as an anchor that follows edits, with the text it covers; none when nothing is selected. */
export function anchorForSelection(editor: Editor): { anchor: { start: Record<string, unknown>; end: Record<string, unknown> }; quote: string } | undefined {
  const { state } = editor;
  const b = binding(state);
  let { from, to } = state.selection;
  if (from === to) {
    // A read-only editor (a commenter's) may not track the selection: read the page's.
    const dom = window.getSelection();
    if (!dom || dom.isCollapsed || !dom.anchorNode || !dom.focusNode || !editor.view.dom.contains(dom.anchorNode)) return undefined;
    const a = editor.view.posAtDOM(dom.anchorNode, dom.anchorOffset);
    const f = editor.view.posAtDOM(dom.focusNode, dom.focusOffset);
    [from, to] = [Math.min(a, f), Math.max(a, f)];
  }
  if (!b || from === to) return undefined;
  const quote = state.doc.textBetween(from, to, ' ').slice(0, 1000);
  return {
    anchor: {
      start: Y.relativePositionToJSON(absolutePositionToRelativePosition(from, b.type, b.mapping)) as Record<string, unknown>,
      end: Y.relativePositionToJSON(absolutePositionToRelativePosition(to, b.type, b.mapping)) as Record<string, unknown>,
    },
    quote,
  };
}

/** Hands the editor the threads to mark in the text, and which one is open in the sidebar. */
export function showCommentAnchors(editor: Editor, threads: TCommentThread[], active: string | undefined) {
  editor.view.dispatch(editor.state.tr.setMeta(key, { threads, active } satisfies AnchorsState));
}

/** Where a thread's text is now, to scroll to it; undefined when that text is gone. */
export function threadRange(editor: Editor, threadId: string): { from: number; to: number } | undefined {
  return anchoredRanges(editor.state).find((a) => a.id === threadId);
}

/**
 * Marks the text of open comment threads, wherever edits have moved it, and tells which thread a
 * click lands on.
 */
export function commentAnchors(on: { select: (threadId: string) => void; comment: (editor: Editor) => void }) {
  return Extension.create({
    name: 'commentAnchors',
    addKeyboardShortcuts() {
      // As in other editors: Ctrl+Alt+M (⌘⌥M) comments on the selection.
      return { 'Mod-Alt-m': () => (on.comment(this.editor), true) };
    },
    addProseMirrorPlugins() {
      return [
        new Plugin<AnchorsState>({
          key,
          state: {
            init: () => ({ threads: [], active: undefined }),
            apply: (tr, value) => (tr.getMeta(key) as AnchorsState | undefined) ?? value,
          },
          props: {
            decorations(state) {
              const active = key.getState(state)?.active;
              return DecorationSet.create(
                state.doc,
                anchoredRanges(state).map((a) =>
                  Decoration.inline(a.from, a.to, { class: a.id === active ? 'comment-anchor comment-anchor-active' : 'comment-anchor', 'data-thread': a.id }),
                ),
              );
            },
            handleClick(view, pos) {
              const hit = anchoredRanges(view.state).find((a) => pos >= a.from && pos <= a.to);
              if (hit) on.select(hit.id);
              return false;
            },
          },
        }),
      ];
    },
  });
}
