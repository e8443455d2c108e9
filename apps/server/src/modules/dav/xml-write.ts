/**
 * WebDAV's XML, written: a small namespaced tree and its serialisation as WebDAV clients read it. No whitespace
 * between elements (a client takes a value, a depth or a timeout as the element's whole text), `d:` for DAV:, each
 * other namespace declared where it is first used under the prefix it came with when that prefix is free, an element
 * in no namespace written without a prefix (with `xmlns=""` when a default namespace is in force; a prefix is never
 * bound to the empty namespace), and `xml:lang` kept.
 */

export const DAV = 'DAV:';
export const XML_NS = 'http://www.w3.org/XML/1998/namespace';

export interface XmlAttribute {
  ns: string;
  local: string;
  prefix?: string;
  value: string;
}

export interface XmlElement {
  /** The namespace URI; '' for none. */
  ns: string;
  local: string;
  /** The prefix it was written with, kept where it can be (RFC 4918 §4.3 asks that prefixes be); '' for the default namespace. */
  prefix?: string;
  attributes: XmlAttribute[];
  children: XmlNode[];
  /** The `xml:lang` in force on it as it was read (its own or inherited); not written (an attribute is). */
  lang?: string;
}

export type XmlNode = XmlElement | string;

/** An element of DAV: with children (text or elements). */
export function d(local: string, ...children: (XmlNode | undefined | false)[]): XmlElement {
  return { ns: DAV, local, attributes: [], children: children.filter((c): c is XmlNode => c !== undefined && c !== false) };
}

/** An element of any namespace, with children. */
export function element(ns: string, local: string, children: XmlNode[] = [], attributes: XmlAttribute[] = []): XmlElement {
  return { ns, local, attributes, children };
}

// Characters XML 1.0 does not allow (C0 controls but tab and line ends, U+FFFE, U+FFFF, lone surrogates) cannot be
// written at all, even as references: a name stored before such names were refused shows U+FFFD in their place.
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const text = (s: string) =>
  s
    .replace(NOT_XML, '\ufffd')
    .replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'))
    .replace(/\r/g, '&#13;');
const attribute = (s: string) =>
  s
    .replace(NOT_XML, '\ufffd')
    .replace(/[&<>"\t\n\r]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\t': '&#9;', '\n': '&#10;', '\r': '&#13;' })[c]!);
const NAME = /^[A-Za-z_][\w.-]*$/;

/** The document: an XML declaration and the root, as UTF-8 text (the caller sends it with `charset=utf-8`). */
export function writeXml(root: XmlElement): string {
  const out: string[] = ['<?xml version="1.0" encoding="utf-8"?>'];
  let generated = 0;
  const write = (e: XmlElement, scope: Map<string, string>) => {
    const own = new Map(scope);
    const declarations: string[] = [];
    // The prefix an element or attribute of namespace `ns` is written with, declared here when it is not in scope.
    const prefixFor = (ns: string, wanted: string | undefined, isAttribute: boolean): string => {
      if (ns === XML_NS) return 'xml';
      if (ns === DAV && !wanted) wanted = 'd';
      for (const [p, uri] of own) if (uri === ns && p !== '' && (!wanted || p === wanted)) return p;
      let p = wanted && NAME.test(wanted) && !/^xml/i.test(wanted) && !own.has(wanted) ? wanted : undefined;
      if (!p && !isAttribute) for (const [q, uri] of own) if (uri === ns && q !== '') return q;
      while (!p || own.has(p)) p = `x${++generated}`;
      own.set(p, ns);
      declarations.push(` xmlns:${p}="${attribute(ns)}"`);
      return p;
    };
    let name: string;
    // In no namespace, or in the default namespace as it came: unprefixed, the default declared when it differs.
    if (e.ns === '' || e.prefix === '') {
      name = e.local;
      if ((own.get('') ?? '') !== e.ns) {
        own.set('', e.ns);
        declarations.push(` xmlns="${attribute(e.ns)}"`);
      }
    } else name = `${prefixFor(e.ns, e.prefix, false)}:${e.local}`;
    const attributes = e.attributes.map((a) => ` ${a.ns ? `${prefixFor(a.ns, a.prefix, true)}:` : ''}${a.local}="${attribute(a.value)}"`);
    out.push(`<${name}${declarations.join('')}${attributes.join('')}`);
    if (!e.children.length) {
      out.push('/>');
      return;
    }
    out.push('>');
    for (const child of e.children) {
      if (typeof child === 'string') out.push(text(child));
      else write(child, own);
    }
    out.push(`</${name}>`);
  };
  write(root, new Map());
  return out.join('');
}
