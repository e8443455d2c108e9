/**
 * A document's other forms, for the server (Node only: HTML goes through happy-dom with scripts
 * off): its Yjs state, ProseMirror JSON, plain text, Markdown and HTML. Everything passes through
 * the schema, so what the schema does not know — scripts, event handlers, `javascript:` links,
 * styles — is dropped on the way in and never written on the way out.
 */
import { getSchema, getText, getTextSerializersFromSchema, type JSONContent } from '@tiptap/core';
import { MarkdownManager } from '@tiptap/markdown';
import { Node as PMNode } from '@tiptap/pm/model';
import { prosemirrorToYXmlFragment, yXmlFragmentToProseMirrorRootNode } from '@tiptap/y-tiptap';
import * as Y from 'yjs';
import { attachmentId, DOCUMENT_FRAGMENT, documentExtensions, isSafeUrl } from './index.ts';

const extensions = documentExtensions();
const schema = getSchema(extensions);
const textSerializers = getTextSerializersFromSchema(schema);
let markdownManager: MarkdownManager | undefined;
const markdown = () => (markdownManager ??= new MarkdownManager({ extensions }));

export type { JSONContent, PMNode };

/** A Yjs doc holding a stored state (one update with the whole document), or an empty one. */
export function stateDoc(state?: Uint8Array): Y.Doc {
  const doc = new Y.Doc();
  if (state) Y.applyUpdate(doc, state);
  return doc;
}

/** The document a Yjs doc holds, as the schema reads it, not cleaned: for its text. */
function rawNode(doc: Y.Doc): PMNode {
  return yXmlFragmentToProseMirrorRootNode(doc.getXmlFragment(DOCUMENT_FRAGMENT), schema);
}

/**
 * The document a Yjs doc holds, as the schema reads it and cleaned like anything imported: a
 * client that wrote a `javascript:` link straight into the Yjs state does not get it exported.
 */
export function documentNode(doc: Y.Doc): PMNode {
  return nodeFromJSON(rawNode(doc).toJSON());
}

/** ProseMirror JSON read into the schema and cleaned: unknown nodes fail here, before anything is stored. */
export function nodeFromJSON(json: JSONContent): PMNode {
  const cleaned = wrapStrayInlines(withoutUnsafeUrls(json));
  // An empty file is an empty document: one empty paragraph.
  if (cleaned.type === 'doc' && !cleaned.content?.length) cleaned.content = [{ type: 'paragraph' }];
  const node = PMNode.fromJSON(schema, cleaned);
  node.check();
  return node;
}

/** Links whose address is not safe lose the link (the text stays); images without a safe address go. */
function withoutUnsafeUrls(json: JSONContent): JSONContent {
  const marks = json.marks?.filter((m) => m.type !== 'link' || (typeof m.attrs?.href === 'string' && isSafeUrl(m.attrs.href)));
  const content = json.content?.filter((c) => c.type !== 'image' || (typeof c.attrs?.src === 'string' && isSafeUrl(c.attrs.src))).map(withoutUnsafeUrls);
  return { ...json, ...(marks ? { marks } : {}), ...(content ? { content } : {}) };
}

/**
 * Inline content where blocks belong (an image alone on its line in Markdown comes out beside the
 * paragraphs, not in one) goes into a paragraph of its own.
 */
function wrapStrayInlines(json: JSONContent): JSONContent {
  if (!json.content) return json;
  const content = json.content.map(wrapStrayInlines);
  const type = json.type ? schema.nodes[json.type] : undefined;
  if (!type || type.inlineContent || type.isLeaf) return { ...json, content };
  const blocks: JSONContent[] = [];
  let run: JSONContent[] | undefined;
  for (const child of content) {
    if (child.type && schema.nodes[child.type]?.isInline) {
      if (!run) blocks.push({ type: 'paragraph', content: (run = []) });
      run.push(child);
    } else {
      run = undefined;
      blocks.push(child);
    }
  }
  return { ...json, content: blocks };
}

/** One Yjs update that creates the whole document: what a new or imported document is stored as. */
export function documentUpdate(node: PMNode): Uint8Array {
  const doc = new Y.Doc();
  prosemirrorToYXmlFragment(node, doc.getXmlFragment(DOCUMENT_FRAGMENT));
  return Y.encodeStateAsUpdate(doc);
}

/** Makes a Yjs document hold `node`, changing only the blocks that differ: a restore, seen live by everyone editing. */
export function replaceDocument(doc: Y.Doc, node: PMNode): void {
  prosemirrorToYXmlFragment(node, doc.getXmlFragment(DOCUMENT_FRAGMENT));
}

/**
 * `json` with each address that names a Cabinet item (a picture's `src`, and a link's `href` unless `pictures` only)
 * replaced by what `change` gives for it (by the item's id); undefined keeps it.
 */
function withItemAddresses(json: JSONContent, change: (url: string, id: string) => string | undefined, o: { picturesOnly?: boolean } = {}): JSONContent {
  const changed = (url: unknown) => {
    const id = typeof url === 'string' ? attachmentId(url) : undefined;
    return (id && change(url as string, id)) ?? url;
  };
  const walk = (n: JSONContent): JSONContent => ({
    ...n,
    ...(n.type === 'image' ? { attrs: { ...n.attrs, src: changed(n.attrs?.src) } } : {}),
    ...(n.marks && !o.picturesOnly
      ? { marks: n.marks.map((m) => (m.type === 'link' ? { ...m, attrs: { ...m.attrs, href: changed(m.attrs?.href) } } : m)) }
      : {}),
    ...(n.content ? { content: n.content.map(walk) } : {}),
  });
  return walk(json);
}

/**
 * A document's state with its references to Cabinet items (its pictures and attached files)
 * pointed at other items — a copy's own attachments. Undefined when it names none of them.
 */
export function withItemsRenamed(state: Uint8Array, rename: Map<string, string>): Uint8Array | undefined {
  let changed = false;
  const json = withItemAddresses(documentNode(stateDoc(state)).toJSON(), (url, id) => {
    const to = rename.get(id);
    if (!to) return undefined;
    changed = true;
    return url.replace(id, to);
  });
  return changed ? documentUpdate(nodeFromJSON(json)) : undefined;
}

/**
 * Plain text for search and previews: one line per block, mentions as `@name`. Read straight from
 * a Yjs doc (as every save does) it skips the cleaning export needs: text has no addresses.
 */
export function documentText(source: Y.Doc | PMNode): string {
  const node = source instanceof Y.Doc ? rawNode(source) : source;
  // NUL is dropped: PostgreSQL text cannot hold it, and a pasted one must not stop the document from saving.
  return getText(node, { blockSeparator: '\n', textSerializers })
    .replace(/\n{2,}/g, '\n')
    .replace(/\0/g, '')
    .trim();
}

/** The people a document mentions (the ids of its mention nodes), each once, in order. */
export function documentMentions(source: Y.Doc | PMNode): string[] {
  const node = source instanceof Y.Doc ? rawNode(source) : source;
  const ids = new Set<string>();
  node.descendants((n) => {
    if (n.type.name === 'mention' && typeof n.attrs.id === 'string' && n.attrs.id) ids.add(n.attrs.id);
  });
  return [...ids];
}

/** A document's text and the people it mentions, read from one pass of the schema over its Yjs state (what every save stores). */
export function documentSummary(doc: Y.Doc): { text: string; mentions: string[] } {
  const node = rawNode(doc);
  return { text: documentText(node), mentions: documentMentions(node) };
}

export function fromMarkdown(source: string): PMNode {
  return nodeFromJSON(markdown().parse(source));
}

/** The document as Markdown; `addresses` gives other addresses for the Cabinet items it names (by item id): an export's relative paths. */
export function toMarkdown(node: PMNode, addresses?: ReadonlyMap<string, string>): string {
  const json = addresses?.size ? withItemAddresses(node.toJSON(), (_url, id) => addresses.get(id)) : node.toJSON();
  return markdown().serialize(json);
}

/** Tiptap's HTML over happy-dom, loaded when HTML is first read or written: it takes half a second, which a server's or a command's start need not spend. */
let htmlModule: Promise<typeof import('@tiptap/html/server')> | undefined;
const html = () => (htmlModule ??= import('@tiptap/html/server'));

export async function fromHTML(source: string): Promise<PMNode> {
  const { generateJSON } = await html();
  return nodeFromJSON(generateJSON(source, extensions));
}

/**
 * The document's body as HTML (no `<html>` around it). `pictures` gives other addresses for
 * pictures that are Cabinet items (by item id); every other address is written as it is.
 */
export async function toHTML(node: PMNode, pictures?: ReadonlyMap<string, string>): Promise<string> {
  const { generateHTML } = await html();
  const json = node.toJSON() as JSONContent;
  return generateHTML(pictures?.size ? withItemAddresses(json, (_url, id) => pictures.get(id), { picturesOnly: true }) : json, extensions);
}
