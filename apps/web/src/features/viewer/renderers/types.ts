import type { ComponentType, ReactNode } from 'react';
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
  /** Where Cabinet has made a picture of it (ADR 0040): a video's poster, a PDF's first page while the PDF loads. */
  preview?: { state: string; v?: string | null; width?: number | null; height?: number | null } | null | undefined;
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
  /** Reads the file's bytes by its signed URL: the URL is asked for while the renderer's code loads. */
  readsBytes?: boolean;
  load(): Promise<{ default: ComponentType<RendererProps> }>;
  /** What shows while its code and the file load (a spinner by default). */
  loading?: (props: RendererProps) => ReactNode;
}
