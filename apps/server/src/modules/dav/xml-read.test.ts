import { describe, expect, it } from 'vitest';
import { readXml } from './xml-read.ts';
import { writeXml, type XmlElement } from './xml-write.ts';

const read = (s: string) => readXml(Buffer.from(s, 'utf8'));
const NS = 'http://example.com/neon/litmus/';

describe('WebDAV XML as read', () => {
  it('reads namespaces, prefixes, the empty namespace and xml:lang', () => {
    const body = read(
      `<?xml version="1.0" encoding="utf-8" ?>\n<D:propertyupdate xmlns:D="DAV:">\n <D:set><D:prop>` +
        `<nonamespace xmlns="">randomvalue</nonamespace><t:v xmlns:t="${NS}" xml:lang="en-GB">a<foo xmlns="http://bar"/>b</t:v>` +
        `</D:prop></D:set>\n</D:propertyupdate>`,
    );
    expect(body.ns).toBe('DAV:');
    expect(body.local).toBe('propertyupdate');
    const elements = (e: XmlElement) => e.children.filter((c): c is XmlElement => typeof c !== 'string');
    const prop = elements(elements(elements(body)[0]!)[0]!);
    expect(prop[0]).toStrictEqual({ ns: '', local: 'nonamespace', prefix: '', attributes: [], children: ['randomvalue'] });
    expect(prop[1]).toStrictEqual({
      ns: NS,
      local: 'v',
      prefix: 't',
      attributes: [{ ns: 'http://www.w3.org/XML/1998/namespace', local: 'lang', prefix: 'xml', value: 'en-GB' }],
      children: ['a', { ns: 'http://bar', local: 'foo', prefix: '', attributes: [], children: [], lang: 'en-GB' }, 'b'],
      lang: 'en-GB',
    });
  });

  it('keeps whitespace in a value and notes the xml:lang an element inherits', () => {
    const body = read(
      `<D:propertyupdate xmlns:D="DAV:" xml:lang="fr"><D:set><D:prop><x:p xmlns:x="u"><x:a>1</x:a> <x:b>2</x:b></x:p></D:prop></D:set></D:propertyupdate>`,
    );
    const p = ((body.children[0] as XmlElement).children[0] as XmlElement).children[0] as XmlElement;
    expect(p.lang).toBe('fr');
    expect(writeXml({ ...p, lang: undefined })).toBe('<?xml version="1.0" encoding="utf-8"?><x:p xmlns:x="u"><x:a>1</x:a> <x:b>2</x:b></x:p>');
    expect(read('\uFEFF<a/>').local).toBe('a');
  });

  it('reads characters beyond the BMP, and what it reads it writes back', () => {
    const v = read(`<high-unicode xmlns="${NS}">&#65536;</high-unicode>`);
    expect(v.children).toStrictEqual(['\u{10000}']);
    const again = `<t:valnspace xmlns:t="${NS}"><foo xmlns="http://bar"/></t:valnspace>`;
    expect(writeXml(read(again))).toBe(`<?xml version="1.0" encoding="utf-8"?>${again}`);
  });

  it.each([
    ['<foo>', 'not closed'],
    ['<D:propfind xmlns:D="DAV:"><D:prop><bar:foo xmlns:bar=""/></D:prop></D:propfind>', 'a prefix bound to the empty namespace'],
    ['<a:b/>', 'an unbound prefix'],
    ['<a/><b/>', 'a second root'],
    ['<!DOCTYPE a [<!ENTITY e "x">]><a>&e;</a>', 'a document type'],
    ['<a>&#0;</a>', 'a character XML does not allow'],
    ['', 'nothing'],
    [`${'<a>'.repeat(65)}${'</a>'.repeat(65)}`, 'nested too deep'],
  ])('refuses %j (%s)', (body) => {
    expect(() => read(body)).toThrow(/not well-formed XML/);
  });

  it('refuses bytes that are not UTF-8', () => {
    expect(() => readXml(Buffer.from([0x3c, 0x61, 0x3e, 0xff, 0x3c, 0x2f, 0x61, 0x3e]))).toThrow(/not UTF-8/);
  });
});
