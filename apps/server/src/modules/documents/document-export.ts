import type { TExportFormat } from '@cabinet/contracts';
import { attachmentId } from '@cabinet/doc-schema';
import { documentNode, stateDoc, toHTML, toMarkdown, type JSONContent } from '@cabinet/doc-schema/server';

// Runs in a worker of the pool (see exportDocument): a document's other forms take time in
// proportion to its length, and a long one would hold up everything else on the main thread.

/** The document's own pictures (Cabinet files), each address with its item's id: what a PDF may carry. */
export function pictureSources({ state }: { state?: Uint8Array }): [src: string, itemId: string][] {
  const sources = new Map<string, string>();
  const walk = (n: JSONContent) => {
    const id = n.type === 'image' && typeof n.attrs?.src === 'string' ? attachmentId(n.attrs.src) : undefined;
    if (id) sources.set(n.attrs!.src as string, id);
    n.content?.forEach(walk);
  };
  walk(documentNode(stateDoc(state)).toJSON() as JSONContent);
  return [...sources];
}

/** Every Cabinet item the document names, by id: its pictures, attached files and links to items. */
export function namedItems({ state }: { state?: Uint8Array }): string[] {
  const ids = new Set<string>();
  const note = (url: unknown) => {
    const id = typeof url === 'string' ? attachmentId(url) : undefined;
    if (id) ids.add(id);
  };
  const walk = (n: JSONContent) => {
    if (n.type === 'image') note(n.attrs?.src);
    for (const m of n.marks ?? []) if (m.type === 'link') note(m.attrs?.href);
    n.content?.forEach(walk);
  };
  walk(documentNode(stateDoc(state)).toJSON() as JSONContent);
  return [...ids];
}

/**
 * The document as a file's contents: Markdown (the Cabinet items it names at the addresses `pictures` gives by item
 * id), a page of HTML (its pictures at those addresses), or a PDF with the pictures given as data URLs by address.
 */
export async function renderExport({
  state,
  format,
  title,
  images,
  pictures,
}: {
  state?: Uint8Array;
  format: TExportFormat;
  title: string;
  images: Map<string, string>;
  pictures?: Map<string, string>;
}): Promise<string | Uint8Array> {
  const node = documentNode(stateDoc(state));
  if (format === 'markdown') return toMarkdown(node, pictures);
  if (format === 'html') return htmlPage(title, await toHTML(node, pictures));
  // pdfmake and its fonts are loaded by the worker for the first PDF: Markdown and HTML never need them.
  const { documentPdf } = await import('./document-pdf.ts');
  return documentPdf(node.toJSON() as JSONContent, title, images);
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A page around the document's HTML; its own policy forbids scripts, so it is safe to open wherever it is saved. */
function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src https: http: data:; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body { font-family: system-ui, sans-serif; line-height: 1.6; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; }
pre { background: #f3f3f3; padding: .75rem 1rem; overflow-x: auto; }
blockquote { border-left: 3px solid #ccc; margin-left: 0; padding-left: 1rem; color: #555; }
table { border-collapse: collapse; } th, td { border: 1px solid #ccc; padding: .3rem .6rem; } th { background: #f0f0f0; }
ul[data-type="taskList"] { list-style: none; padding-left: .2rem; } ul[data-type="taskList"] li { display: flex; gap: .5rem; }
img { max-width: 100%; }
</style>
</head>
<body>
${body}
</body>
</html>
`;
}
