/** Where a file shown in the viewer is read from: a workspace's item, or an item inside a public link. */
export interface ViewerSource {
  /** Where this item's conversion routes are: '/api/v1/items/<id>' for a workspace item, '/api/v1/links/<token>/items/<itemId>' inside a public link. */
  base: string;
  /** An older version to show (workspace items only). */
  versionId?: string;
}

/** What every renderer of the viewer takes. */
export interface RendererProps {
  item: { id: string; name: string; size: number; mimeType: string | null };
  source: ViewerSource;
}
