import { Box } from '@mantine/core';
import { filesApi, urlOf, type TItem } from '@cabinet/contracts';
import { useEffect, useState } from 'react';

/** What a thumbnail needs of an item: the app's items and a public link's alike. */
type Previewed = Pick<TItem, 'id' | 'kind' | 'name' | 'preview'>;

/** Where the thumbnail of an item's bytes (`v`, their hash) is: the item's own route unless told (a public link's). */
export type ThumbnailAddress = (item: Previewed, size: '256' | '1024', v: string) => string;
const itemAddress: ThumbnailAddress = (item, size, v) => urlOf(filesApi.thumbnail, { id: item.id }, { size, v });

/** The address of a file's thumbnail when it has one: named by its bytes' hash, so the browser keeps it for good. */
function thumbnailUrl(item: Previewed, size: '256' | '1024', address: ThumbnailAddress): string | null {
  const p = item.preview;
  if (item.kind !== 'file' || p?.state !== 'ready' || !p.v) return null;
  return address(item, size, p.v);
}

/** The ThumbHash decoder, loaded once the first list with a placeholder is drawn (it is not part of the first load's budget). */
let decoder: Promise<typeof import('thumbhash')> | undefined;

/** The ThumbHash placeholder as a tiny picture (a data URL), or null. */
function usePlaceholder(item: Previewed): string | null {
  const hash = item.preview?.placeholder;
  const [decoded, setDecoded] = useState<{ hash: string; url: string | null }>();
  useEffect(() => {
    if (!hash) return;
    let live = true;
    (decoder ??= import('thumbhash')).then(
      ({ thumbHashToDataURL }) => {
        let url: string | null = null;
        try {
          url = thumbHashToDataURL(Uint8Array.from(atob(hash), (c) => c.charCodeAt(0)));
        } catch {
          url = null;
        }
        if (live) setDecoded({ hash, url });
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [hash]);
  return hash && decoded?.hash === hash ? decoded.url : null;
}

/** The size a picture of `w` × `h` takes fitted inside `box` × `box` pixels (never enlarged past `box`). */
function fitted(w: number | null | undefined, h: number | null | undefined, boxW: number, boxH: number) {
  if (!w || !h) return { width: boxW, height: boxH };
  const scale = Math.min(boxW / w, boxH / h);
  return { width: Math.round(w * scale), height: Math.round(h * scale) };
}

/**
 * A file's thumbnail fitted in a `width` × `height` box: the placeholder drawn at the picture's
 * aspect at once (so the grid never moves), the picture over it once loaded; `fallback` (the
 * type's icon) when there is none or it cannot be loaded.
 */
export function ItemThumbnail({
  item,
  size,
  width,
  height,
  fallback,
  decorative = false,
  address = itemAddress,
}: {
  item: Previewed;
  size: '256' | '1024';
  width: number;
  height: number;
  fallback: React.ReactNode;
  /** Beside the item's name (a list row): no text of its own for screen readers. */
  decorative?: boolean;
  address?: ThumbnailAddress;
}) {
  const url = thumbnailUrl(item, size, address);
  const placeholder = usePlaceholder(item);
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  if (!url || failedUrl === url) return <>{fallback}</>;
  const box = fitted(item.preview?.width, item.preview?.height, width, height);
  return (
    <Box
      w={box.width}
      h={box.height}
      style={{
        backgroundImage: placeholder ? `url(${placeholder})` : undefined,
        backgroundSize: '100% 100%',
        borderRadius: 4,
        overflow: 'hidden',
        flex: 'none',
        // An edge, so a white page (a PDF's, a document's) stands apart from a white card or row.
        boxShadow: '0 0 0 1px var(--mantine-color-default-border)',
      }}
    >
      <img
        src={url}
        alt={decorative ? '' : `Thumbnail of ${item.name}`}
        width={box.width}
        height={box.height}
        loading="lazy"
        decoding="async"
        draggable={false}
        onError={() => setFailedUrl(url)}
        style={{ display: 'block', width: '100%', height: '100%', objectFit: 'contain' }}
      />
    </Box>
  );
}
