import { SaxesParser, type SaxesTagNS } from 'saxes';
import { XML_NS, type XmlAttribute, type XmlElement } from './xml-write.ts';

/** A request body that is not well-formed, namespace-correct XML within bounds: answered 400. */
export class XmlInvalid extends Error {}

const MAX_DEPTH = 64;
const XMLNS = 'http://www.w3.org/2000/xmlns/';

/**
 * A WebDAV request body read strictly (saxes, namespaces on): bytes that are not UTF-8, a document type (so no
 * entities beyond XML's own), a prefix bound to the empty namespace, anything after the root, or nesting deeper than
 * 64 are refused. All text is kept, whitespace too (a dead property's value comes back as it was sent: readers of
 * WebDAV's own elements look at elements and skip text); each element notes the `xml:lang` in force on it.
 */
export function readXml(body: Uint8Array): XmlElement {
  let source: string;
  try {
    source = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(body);
  } catch {
    throw new XmlInvalid('The request body is not UTF-8.');
  }
  const parser = new SaxesParser({ xmlns: true, position: false });
  let failure: string | undefined;
  let root: XmlElement | undefined;
  const open: XmlElement[] = [];
  const langs: (string | undefined)[] = [];
  parser.on('error', (e) => void (failure ??= e.message));
  parser.on('doctype', () => void (failure ??= 'document types are not accepted'));
  parser.on('opentag', (tag) => {
    const t = tag as SaxesTagNS;
    const attributes: XmlAttribute[] = Object.values(t.attributes)
      .filter((a) => a.uri !== XMLNS && a.name !== 'xmlns')
      .map((a) => ({ ns: a.uri, local: a.local, ...(a.prefix ? { prefix: a.prefix } : {}), value: a.value }));
    const lang = attributes.find((a) => a.ns === XML_NS && a.local === 'lang')?.value ?? langs[langs.length - 1];
    const e: XmlElement = { ns: t.uri, local: t.local, prefix: t.prefix, attributes, children: [], ...(lang !== undefined ? { lang } : {}) };
    const parent = open[open.length - 1];
    if (parent) parent.children.push(e);
    else root = e;
    open.push(e);
    langs.push(lang);
    if (open.length > MAX_DEPTH) failure ??= `elements are nested deeper than ${MAX_DEPTH}`;
  });
  parser.on('closetag', () => {
    open.pop();
    langs.pop();
  });
  const addText = (text: string) => {
    const e = open[open.length - 1];
    if (!e) return;
    const last = e.children[e.children.length - 1];
    if (typeof last === 'string') e.children[e.children.length - 1] = last + text;
    else e.children.push(text);
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  try {
    // The decoder has taken off a byte order mark.
    parser.write(source).close();
  } catch (e) {
    failure ??= e instanceof Error ? e.message : String(e);
  }
  if (failure || !root) throw new XmlInvalid(`The request body is not well-formed XML: ${failure ?? 'it is empty'}.`);
  return root;
}
