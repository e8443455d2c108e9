import type { AnyExtension } from '@tiptap/core';
import Image from '@tiptap/extension-image';
import Link from '@tiptap/extension-link';
import { TaskItem, TaskList } from '@tiptap/extension-list';
import Mention, { type MentionOptions } from '@tiptap/extension-mention';
import { TableKit } from '@tiptap/extension-table';
import StarterKit from '@tiptap/starter-kit';

/** The Yjs fragment the editor binds to: the document's content lives under this name. */
export const DOCUMENT_FRAGMENT = 'default';

/** Where a Cabinet item a document shows or links to (a picture, an attached file) is read: access checked, then a signed redirect. */
export const attachmentPath = (itemId: string) => `/api/v1/items/${itemId}/content`;

/** The item a document's address names, when it is one of Cabinet's attachment paths (with or without a query). */
export function attachmentId(url: string): string | undefined {
  return /^\/api\/v1\/items\/([0-9a-f-]{36})\/content(\?.*)?$/.exec(url)?.[1];
}

/** Link and image addresses a document may hold: the web, mail, and Cabinet's own paths. Never `javascript:` or `data:`. */
export function isSafeUrl(url: string): boolean {
  const trimmed = url.trim();
  if (trimmed.startsWith('/') && !trimmed.startsWith('//')) return true;
  if (trimmed.startsWith('#')) return true;
  try {
    return ['http:', 'https:', 'mailto:'].includes(new URL(trimmed).protocol);
  } catch {
    return false;
  }
}

/**
 * Images in the document flow. Addresses that are not safe are dropped when HTML or Markdown is
 * read, so a pasted or imported `<img src="javascript:…">` never reaches the document.
 */
const SafeImage = Image.extend({
  addAttributes() {
    return {
      ...this.parent?.(),
      src: { default: null, parseHTML: (el: { getAttribute(name: string): string | null }) => safeOrNull(el.getAttribute('src')) },
    };
  },
  parseMarkdown: (token, helpers) => helpers.createNode('image', { src: safeOrNull(token.href), title: token.title ?? null, alt: token.text ?? null }),
}).configure({ inline: true });

/**
 * Links: typed addresses become links, only safe addresses are kept, and typing at the end of a
 * link does not stretch it (autolink alone would make the mark inclusive).
 */
const SafeLink = Link.extend({ inclusive: () => false }).configure({ openOnClick: false, autolink: true, defaultProtocol: 'https', isAllowedUri: (url) => isSafeUrl(url) });

function safeOrNull(url: string | null | undefined): string | null {
  return url && isSafeUrl(url) ? url : null;
}

export interface DocumentSchemaOptions {
  /** How the browser suggests people after `@` (the server needs none: it only reads and writes documents). */
  mentionSuggestion?: Partial<MentionOptions['suggestion']>;
  /** The code block node: the browser's highlights its code; the schema is the same (`codeBlock` with a `language`). */
  codeBlock?: AnyExtension;
}

/**
 * The extensions that define a Cabinet document: the same schema in the browser's editor and on
 * the server (text, import, export). Anything the editor may hold is declared here and only here.
 */
export function documentExtensions(options: DocumentSchemaOptions = {}): AnyExtension[] {
  return [
    StarterKit.configure({
      // Undo belongs to the collaboration extension in the browser: it undoes your own changes only.
      undoRedo: false,
      codeBlock: options.codeBlock ? false : {},
      link: false,
    }),
    SafeLink,
    ...(options.codeBlock ? [options.codeBlock] : []),
    TaskList,
    TaskItem.configure({ nested: true }),
    TableKit.configure({ table: { resizable: false } }),
    SafeImage,
    Mention.configure({
      HTMLAttributes: { class: 'mention' },
      renderText: ({ node }) => `@${node.attrs.label ?? node.attrs.id}`,
      renderHTML: ({ node, options: o }) => ['span', o.HTMLAttributes, `@${node.attrs.label ?? node.attrs.id}`],
      ...(options.mentionSuggestion ? { suggestion: options.mentionSuggestion } : {}),
    }),
  ];
}
