import { hmac, safeEqual } from '../../lib/crypto.ts';

/** Cabinet-signed URLs for local storage: the path and parameters, with an expiry, under an HMAC. */
export class UrlSigner {
  constructor(
    private readonly baseUrl: string,
    private readonly secret: string,
  ) {}

  private signature(path: string, params: URLSearchParams): string {
    const sorted = [...params].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return hmac(this.secret, `${path}?${new URLSearchParams(sorted).toString()}`);
  }

  sign(path: string, params: Record<string, string>, ttlSeconds: number): { url: string; expiresAt: Date } {
    const expiresAt = new Date(Date.now() + ttlSeconds * 1000);
    const query = new URLSearchParams({ ...params, e: String(Math.floor(expiresAt.getTime() / 1000)) });
    query.set('s', this.signature(path, query));
    return { url: `${this.baseUrl}${path}?${query.toString()}`, expiresAt };
  }

  /** The signed parameters, or null when the signature is wrong or the URL has expired. */
  verify(path: string, query: Record<string, string | undefined>): Record<string, string> | null {
    const { s, ...rest } = query;
    if (!s || !rest.e) return null;
    const params = new URLSearchParams(Object.entries(rest).filter((e): e is [string, string] => e[1] !== undefined));
    if (!safeEqual(s, this.signature(path, params))) return null;
    if (Number(rest.e) * 1000 < Date.now()) return null;
    return Object.fromEntries(params);
  }
}
