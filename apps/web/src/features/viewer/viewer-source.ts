import { filesApi, publicLinksApi, urlOf, type TContentUrl } from '@cabinet/contracts';
import { call } from '../../lib/api-client.ts';

/**
 * How a renderer gets a file's bytes and where the server's conversions of them live, the same for
 * an item of a workspace and for a file under a public link. The signed URL is short-lived: `url()`
 * answers the one in hand while it has more than a little life left and asks for a fresh one after.
 */
export interface ViewerSource {
  /** A signed URL of the bytes (Range works there), with their size and type; fresh when called. */
  url(): Promise<TContentUrl>;
  /** Forgets the URL in hand (the storage refused it), so the next `url()` asks again. */
  expire(): void;
  /**
   * The API path under which this item's conversions live, without a trailing slash:
   * `/api/v1/items/:id` for an item, `/api/v1/links/:token/items/:itemId` on a link's page.
   */
  conversionBase: string;
  /** An older version shown (a workspace's file): the conversions are asked for it. */
  versionId?: string;
  /** The address that downloads the file as an attachment; undefined when downloads are not allowed. */
  downloadUrl: string | undefined;
}

/**
 * The picture Cabinet made of the file (ADR 0040), `size` px on its longer side: for HEIC photos, a
 * video's poster, a PDF's first page. With `v` (the preview's) the browser keeps it for good.
 */
export const thumbnailUrl = (source: ViewerSource, size: 256 | 1024, v?: string | null) =>
  `${source.conversionBase}/thumbnail?size=${size}${source.versionId ? `&version=${encodeURIComponent(source.versionId)}` : ''}${v ? `&v=${v}` : ''}`;

/** A URL is renewed this long before it expires, so a range asked for just before does not arrive after. */
const RENEW_BEFORE_MS = 30_000;

function renewing(fetchUrl: () => Promise<TContentUrl>): Pick<ViewerSource, 'url' | 'expire'> {
  let current: Promise<TContentUrl> | undefined;
  return {
    url() {
      const pending = (current ??= fetchUrl());
      return pending.then(
        (got) => {
          if (Date.parse(got.expiresAt) - Date.now() > RENEW_BEFORE_MS) return got;
          if (current === pending) current = undefined;
          return (current ??= fetchUrl());
        },
        (error: unknown) => {
          if (current === pending) current = undefined;
          throw error;
        },
      );
    },
    expire() {
      current = undefined;
    },
  };
}

/** A workspace's file, or one of its older versions. */
export function itemSource(item: { id: string; abilities: { download: boolean } }, versionId?: string): ViewerSource {
  return {
    ...renewing(() => call(filesApi.contentUrl, { params: { id: item.id }, query: versionId ? { version: versionId } : {} })),
    conversionBase: `/api/v1/items/${encodeURIComponent(item.id)}`,
    ...(versionId ? { versionId } : {}),
    downloadUrl: item.abilities.download
      ? urlOf(filesApi.content, { id: item.id }, { download: '1', ...(versionId ? { version: versionId } : {}) })
      : undefined,
  };
}

/** A file under a public link; downloadable when the link allows it. */
export function linkSource(token: string, itemId: string, downloadAllowed: boolean): ViewerSource {
  return {
    ...renewing(() => call(publicLinksApi.contentUrl, { params: { token, itemId } })),
    conversionBase: `/api/v1/links/${encodeURIComponent(token)}/items/${encodeURIComponent(itemId)}`,
    downloadUrl: downloadAllowed ? urlOf(publicLinksApi.content, { token, itemId }, { download: '1' }) : undefined,
  };
}

/**
 * Bytes `start` to `end` (exclusive) of the file, by a Range request to its signed URL. A URL the
 * storage refuses (expired meanwhile) is renewed once. A storage that answers the whole file instead
 * of the range (200) is cut to the range asked, so callers always get what they asked for.
 */
export async function readRange(source: ViewerSource, start: number, end: number, signal?: AbortSignal): Promise<Uint8Array> {
  for (let attempt = 0; ; attempt++) {
    const { url } = await source.url();
    const res = await fetch(url, { headers: { range: `bytes=${start}-${end - 1}` }, credentials: 'omit', ...(signal ? { signal } : {}) });
    if ((res.status === 403 || res.status === 401) && attempt === 0) {
      source.expire();
      continue;
    }
    if (res.status === 416) return new Uint8Array(0);
    if (!res.ok) throw new Error(`The file could not be read (${res.status}).`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    return res.status === 206 ? bytes : bytes.subarray(start, end);
  }
}
