import { readXml } from '../modules/dav/xml-read.ts';
import type { XmlElement } from '../modules/dav/xml-write.ts';

const DAV = 'DAV:';
const kids = (e: XmlElement, local: string) => e.children.filter((c): c is XmlElement => typeof c !== 'string' && c.ns === DAV && c.local === local);
const textOf = (e: XmlElement | undefined): string => (e ? e.children.map((c) => (typeof c === 'string' ? c : textOf(c))).join('') : '');

/** One `<response>` of a multistatus, read: its href (decoded), status, and each property's value by `ns local` (its element). */
export interface DavEntry {
  href: string;
  status: number | undefined;
  props: Map<string, { status: number; element: XmlElement; text: string }>;
}

/** Reads a 207 multistatus body into its responses. */
export function readMultistatus(body: string): DavEntry[] {
  const root = readXml(Buffer.from(body));
  return kids(root, 'response').map((response) => {
    const props = new Map<string, { status: number; element: XmlElement; text: string }>();
    for (const propstat of kids(response, 'propstat')) {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(textOf(kids(propstat, 'status')[0]))?.[1]);
      for (const prop of kids(propstat, 'prop')) {
        for (const e of prop.children) if (typeof e !== 'string') props.set(`${e.ns} ${e.local}`, { status, element: e, text: textOf(e) });
      }
    }
    const own = kids(response, 'status')[0];
    return {
      href: decodeURIComponent(textOf(kids(response, 'href')[0])),
      status: own ? Number(/^HTTP\/1\.1 (\d{3})/.exec(textOf(own))?.[1]) : undefined,
      props,
    };
  });
}

/** A WebDAV client signed in with Basic (`user` any name, `password` an app password or token), sending what it is given. */
export function davClient(baseUrl: string, password: string, user = 'someone@example.com') {
  const authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const send = (method: string, path: string, o: { headers?: Record<string, string>; body?: string | Uint8Array | ReadableStream<Uint8Array> } = {}) =>
    fetch(new URL(path, baseUrl), {
      method,
      headers: { authorization, ...o.headers },
      // A stream is sent in chunks, with no length declared.
      ...(o.body instanceof ReadableStream ? { body: o.body, duplex: 'half' } : o.body !== undefined ? { body: o.body } : {}),
    } as RequestInit);
  return {
    send,
    /** A PROPFIND (Depth 1 unless told), its status and its responses read. */
    async propfind(path: string, depth: '0' | '1' | 'infinity' = '1', body?: string) {
      const res = await send('PROPFIND', path, { headers: { depth, ...(body ? { 'content-type': 'application/xml' } : {}) }, ...(body ? { body } : {}) });
      const text = await res.text();
      return { status: res.status, text, entries: res.status === 207 ? readMultistatus(text) : [] };
    },
  };
}

/** `/dav/<slug>/<place>/…` with each name percent-encoded. */
export const davUrl = (...names: string[]) => `/dav/${names.map(encodeURIComponent).join('/')}`;
