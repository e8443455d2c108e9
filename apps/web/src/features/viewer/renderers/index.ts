import { isSheetKind, previewKindOf, viewerKind } from '@cabinet/contracts';
import { createElement } from 'react';
import type { Renderer, ViewerItem } from './types.ts';
import { FirstPagePicture } from './viewer-states.tsx';

export type { Renderer, RendererProps, ViewerItem } from './types.ts';

const kind = (item: ViewerItem) => viewerKind(item);

/**
 * The renderers, first match wins. Each loads as a chunk of its own, so pdf.js comes only with a
 * PDF and highlight.js's languages only with code.
 */
export const renderers: Renderer[] = [
  // Converted on the server (ADR 0039), before text: Markdown is text too, but shown rendered.
  {
    name: 'sheet',
    matches: (i) => {
      const converted = previewKindOf(i);
      return converted !== null && isSheetKind(converted);
    },
    load: () => import('./sheet-table.tsx').then((m) => ({ default: m.SheetTable })),
  },
  {
    name: 'document',
    matches: (i) => previewKindOf(i) !== null,
    load: () => import('./rendered-document.tsx').then((m) => ({ default: m.RenderedDocument })),
  },
  // Browsers do not read HEIC: the picture Cabinet made of it, before images.
  {
    name: 'heic',
    matches: (i) => /\.(heic|heif)$/i.test(i.name) || /^image\/hei[cf]/i.test(i.mimeType ?? ''),
    load: () => import('./image-renderer.tsx').then((m) => ({ default: m.HeicRenderer })),
  },
  { name: 'image', readsBytes: true, matches: (i) => kind(i) === 'image' || kind(i) === 'svg', load: () => import('./image-renderer.tsx') },
  {
    name: 'pdf',
    readsBytes: true,
    matches: (i) => kind(i) === 'pdf',
    load: () => import('./pdf-renderer.tsx'),
    loading: (props) => createElement(FirstPagePicture, props),
  },
  {
    name: 'video',
    readsBytes: true,
    matches: (i) => kind(i) === 'video',
    load: () => import('./media-renderer.tsx').then((m) => ({ default: m.VideoRenderer })),
  },
  {
    name: 'audio',
    readsBytes: true,
    matches: (i) => kind(i) === 'audio',
    load: () => import('./media-renderer.tsx').then((m) => ({ default: m.AudioRenderer })),
  },
  { name: 'text', readsBytes: true, matches: (i) => kind(i) === 'text', load: () => import('./text-renderer.tsx') },
];

/** The renderer for a file, or undefined for the "No preview" card. */
export const rendererFor = (item: ViewerItem): Renderer | undefined => renderers.find((r) => r.matches(item));
