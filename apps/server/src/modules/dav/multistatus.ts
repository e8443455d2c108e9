import { STATUS_CODES } from 'node:http';
import type { PropName } from './prop-requests.ts';
import { d, element, type XmlElement } from './xml-write.ts';

/** A status as WebDAV writes it in a body: `HTTP/1.1 404 Not Found` (clients parse the reason phrase too). */
export const statusLine = (code: number) => `HTTP/1.1 ${code} ${STATUS_CODES[code] ?? 'Unknown'}`;

/** One property's outcome for one resource: its value when found (the property element itself), else a status. */
export type PropOutcome = { name: PropName; status: 200; value: XmlElement } | { name: PropName; status: number; value?: undefined };

/**
 * A resource's `<response>`: its properties grouped into one `<propstat>` per status, the 200 one first (a client
 * that reads only the first propstat finds what is there), each property shown by its value or, when not found or
 * failed, by its empty element.
 */
export function propResponse(href: string, outcomes: PropOutcome[]): XmlElement {
  const byStatus = new Map<number, XmlElement[]>();
  for (const o of outcomes) {
    const shown = o.value ?? element(o.name.ns, o.name.local);
    const same = byStatus.get(o.status);
    if (same) same.push(shown);
    else byStatus.set(o.status, [shown]);
  }
  // Asked for no property (an empty DAV:prop): one empty propstat, as a response must hold one.
  if (!outcomes.length) byStatus.set(200, []);
  const statuses = [...byStatus.keys()].sort((a, b) => (a === 200 ? -1 : b === 200 ? 1 : a - b));
  return d('response', d('href', href), ...statuses.map((s) => d('propstat', d('prop', ...byStatus.get(s)!), d('status', statusLine(s)))));
}

/** A `<response>` with one status for the whole resource, and the precondition that failed when there is one. */
export function statusResponse(href: string, status: number, error?: XmlElement): XmlElement {
  return d('response', d('href', href), d('status', statusLine(status)), error && d('error', error));
}

export const multistatus = (responses: XmlElement[]) => d('multistatus', ...responses);
