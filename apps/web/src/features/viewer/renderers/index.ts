import { viewerKind } from '@cabinet/contracts';
import type { ComponentType } from 'react';
import type { ViewerSource } from '../viewer-source.ts';

/**
 * What a renderer knows of the file it shows: the fields an item of a workspace (TItem) and a file
 * under a public link (TPublicItem) have in common.
 */
export interface ViewerItem {
  id: string;
  name: string;
  size: number;
  mimeType: string | null;
}

export interface RendererProps {
  item: ViewerItem;
  source: ViewerSource;
}

/** One kind of preview: which files it takes, and its component, loaded only when such a file is opened. */
export interface Renderer {
  /** Named for tests and the page's data attribute. */
  name: string;
  matches(item: ViewerItem): boolean;
  load(): Promise<{ default: ComponentType<RendererProps> }>;
}

const kind = (item: ViewerItem) => viewerKind(item);

/**
 * The renderers, first match wins. Each loads as a chunk of its own, so pdf.js comes only with a
 * PDF and highlight.js's languages only with code.
 */
export const renderers: Renderer[] = [
  // Converted on the server (helper C's renderers: DOCX/ODT, Markdown as sanitized HTML, XLSX/ODS/CSV as sheets) go here, before text.
  // HEIC/HEIF (decoded to a picture on the server) goes here too, before images.
  { name: 'image', matches: (i) => kind(i) === 'image' || kind(i) === 'svg', load: () => import('./image-renderer.tsx') },
  { name: 'pdf', matches: (i) => kind(i) === 'pdf', load: () => import('./pdf-renderer.tsx') },
  { name: 'video', matches: (i) => kind(i) === 'video', load: () => import('./media-renderer.tsx').then((m) => ({ default: m.VideoRenderer })) },
  { name: 'audio', matches: (i) => kind(i) === 'audio', load: () => import('./media-renderer.tsx').then((m) => ({ default: m.AudioRenderer })) },
  { name: 'text', matches: (i) => kind(i) === 'text', load: () => import('./text-renderer.tsx') },
];

/** The renderer for a file, or undefined for the "No preview" card. */
export const rendererFor = (item: ViewerItem): Renderer | undefined => renderers.find((r) => r.matches(item));
