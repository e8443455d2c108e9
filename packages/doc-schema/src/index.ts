// The extensions' commands (toggleBold, insertTable…) are typed by augmenting @tiptap/core; these keep that
// augmentation in this package's declarations, so the editor that imports them sees the commands.
/// <reference types="@tiptap/starter-kit" preserve="true" />
/// <reference types="@tiptap/extension-list" preserve="true" />
/// <reference types="@tiptap/extension-table" preserve="true" />
/// <reference types="@tiptap/extension-image" preserve="true" />
/// <reference types="@tiptap/extension-link" preserve="true" />
/// <reference types="@tiptap/extension-mention" preserve="true" />
import type { AnyExtension, MarkdownTokenizer } from '@tiptap/core';
import Image from '@tiptap/extension-image';
import Link from '@tiptap/extension-link';
import { OrderedList, ORDERED_LIST_MARKER_PATTERN, TaskItem, TaskList } from '@tiptap/extension-list';
import Mention, { type MentionOptions } from '@tiptap/extension-mention';
import { Table, TableCell, TableHeader, TableRow } from '@tiptap/extension-table';
import StarterKit from '@tiptap/starter-kit';

/** The Yjs fragment the editor binds to: the document's content lives under this name. */
export const DOCUMENT_FRAGMENT = 'default';

/**
 * The item a document's address names, when it is one of Cabinet's attachment paths (with or without
 * a query): a picture or an attached file, read through `GET /items/:id/content` (access checked, then
 * a signed redirect). The browser writes these addresses with the route's `urlOf`.
 */
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
const SafeLink = Link.extend({ inclusive: () => false }).configure({
  openOnClick: false,
  autolink: true,
  defaultProtocol: 'https',
  isAllowedUri: (url) => isSafeUrl(url),
});

/**
 * Markdown reading asks each block tokenizer at every block of the file, and the stock list
 * tokenizers split all the rest of the file into lines (the table's start check too, to read two
 * of them): reading took time in the square of the file's length (20,000 paragraphs: minutes).
 * These lists are asked only when their first line is an item, and are handed only the lines a
 * list can reach: up to the first unindented line, after a blank line, that is not an item.
 */
function listTokenizer(config: { markdownTokenizer?: MarkdownTokenizer }, item: RegExp): MarkdownTokenizer {
  const tokenizer = config.markdownTokenizer!;
  return { ...tokenizer, tokenize: (src, tokens, helpers) => (item.test(src) ? tokenizer.tokenize(listReach(src, item), tokens, helpers) : undefined) };
}

function listReach(src: string, item: RegExp): string {
  let at = src.indexOf('\n') + 1;
  let afterBlank = false;
  while (at > 0 && at < src.length) {
    const end = src.indexOf('\n', at);
    const line = src.slice(at, end < 0 ? undefined : end);
    if (!line.trim()) afterBlank = true;
    else if (afterBlank && !/^\s/.test(line) && !item.test(line)) return src.slice(0, at);
    else afterBlank = false;
    at = end + 1;
  }
  return src;
}

const LinearOrderedList = OrderedList.extend({
  markdownTokenizer: listTokenizer(OrderedList.config, new RegExp(String.raw`^[ \t]*(${ORDERED_LIST_MARKER_PATTERN})[.)][ \t]`)),
});
const LinearTaskList = TaskList.extend({ markdownTokenizer: listTokenizer(TaskList.config, /^[ \t]*[-+*][ \t]+\[[ xX]\][ \t]/) });
const LinearTable = Table.extend({
  markdownTokenizer: {
    ...Table.config.markdownTokenizer!,
    start: (src: string) => {
      const first = src.indexOf('\n');
      if (first < 0) return -1;
      const end = src.indexOf('\n', first + 1);
      const separator = src.slice(first + 1, end < 0 ? undefined : end);
      if (!/^[ \t|:]*-[ \t|:-]*$/.test(separator) || !separator.includes('|')) return -1;
      return src.slice(0, first).includes('|') ? 0 : -1;
    },
  },
}).configure({ resizable: false });

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
      orderedList: false,
    }),
    LinearOrderedList,
    SafeLink,
    ...(options.codeBlock ? [options.codeBlock] : []),
    LinearTaskList,
    TaskItem.configure({ nested: true }),
    LinearTable,
    TableRow,
    TableHeader,
    TableCell,
    SafeImage,
    Mention.configure({
      HTMLAttributes: { class: 'mention' },
      renderText: ({ node }) => `@${node.attrs.label ?? node.attrs.id}`,
      renderHTML: ({ node, options: o }) => ['span', o.HTMLAttributes, `@${node.attrs.label ?? node.attrs.id}`],
      ...(options.mentionSuggestion ? { suggestion: options.mentionSuggestion } : {}),
    }),
  ];
}
