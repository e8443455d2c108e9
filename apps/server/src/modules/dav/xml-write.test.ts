import { describe, expect, it } from 'vitest';
import { d, element, writeXml, XML_NS } from './xml-write.ts';

const HEAD = '<?xml version="1.0" encoding="utf-8"?>';
const NS = 'http://example.com/neon/litmus/';

describe('WebDAV XML as written', () => {
  it('writes DAV: as d:, without whitespace, escaping text and attributes', () => {
    expect(writeXml(d('multistatus', d('response', d('href', '/dav/a%20b/'), d('status', 'HTTP/1.1 200 OK'))))).toBe(
      `${HEAD}<d:multistatus xmlns:d="DAV:"><d:response><d:href>/dav/a%20b/</d:href><d:status>HTTP/1.1 200 OK</d:status></d:response></d:multistatus>`,
    );
    expect(writeXml(element(NS, 'v', ['a < b & c > d\r'], [{ ns: '', local: 'q', value: '"<&>\n' }]))).toBe(
      `${HEAD}<x1:v xmlns:x1="${NS}" q="&quot;&lt;&amp;&gt;&#10;">a &lt; b &amp; c &gt; d&#13;</x1:v>`,
    );
  });

  it('keeps a property in no namespace unprefixed, and never binds a prefix to the empty namespace', () => {
    const prop = d('prop', element('', 'nonamespace', ['randomvalue']));
    expect(writeXml(prop)).toBe(`${HEAD}<d:prop xmlns:d="DAV:"><nonamespace>randomvalue</nonamespace></d:prop>`);
    // Under a default namespace (a dead property's value as it came), xmlns="" puts it back in none.
    const under = element('http://bar', 'v', [element('', 'inner', ['x'])]);
    under.prefix = '';
    expect(writeXml(under)).toBe(`${HEAD}<v xmlns="http://bar"><inner xmlns="">x</inner></v>`);
  });

  it('declares each namespace where it is first used, under its own prefix when free', () => {
    const many = ['alpha', 'beta', 'gamma'].map((n) => element(`http://example.com/${n}`, 'somename', ['manynsvalue']));
    expect(writeXml(d('prop', ...many))).toBe(
      `${HEAD}<d:prop xmlns:d="DAV:">` +
        many
          .map((_, i) => `<x${i + 1}:somename xmlns:x${i + 1}="http://example.com/${['alpha', 'beta', 'gamma'][i]}">manynsvalue</x${i + 1}:somename>`)
          .join('') +
        '</d:prop>',
    );
    const kept = { ...element(NS, 'valnspace', [{ ...element('http://bar', 'foo'), prefix: '' }]), prefix: 't' };
    expect(writeXml(d('prop', kept))).toBe(`${HEAD}<d:prop xmlns:d="DAV:"><t:valnspace xmlns:t="${NS}"><foo xmlns="http://bar"/></t:valnspace></d:prop>`);
    // A prefix taken for another namespace in scope is not reused for this one.
    const clash = { ...element(NS, 'outer', [{ ...element('http://other/', 'inner'), prefix: 'd' }]), prefix: 'd' };
    expect(writeXml(d('prop', clash))).toBe(
      `${HEAD}<d:prop xmlns:d="DAV:"><x1:outer xmlns:x1="${NS}"><x2:inner xmlns:x2="http://other/"/></x1:outer></d:prop>`,
    );
  });

  it('writes U+FFFD for what XML 1.0 cannot hold, even as a reference', () => {
    expect(writeXml(element(NS, 'p', ['a\u0001b\uFFFEc\uD800d'], [{ ns: '', local: 'q', value: '\u0000' }]))).toBe(
      `${HEAD}<x1:p xmlns:x1="${NS}" q="\uFFFD">a\uFFFDb\uFFFDc\uFFFDd</x1:p>`,
    );
    expect(writeXml(element(NS, 'p', ['\u{10000}\t\n']))).toBe(`${HEAD}<x1:p xmlns:x1="${NS}">\u{10000}\t\n</x1:p>`);
  });

  it('writes xml:lang without declaring xml:, and characters beyond the BMP as they are', () => {
    const prop = element(NS, 'high-unicode', ['\u{10000}'], [{ ns: XML_NS, local: 'lang', value: 'en' }]);
    const written = writeXml(prop);
    expect(written).toBe(`${HEAD}<x1:high-unicode xmlns:x1="${NS}" xml:lang="en">\u{10000}</x1:high-unicode>`);
    const bytes = Buffer.from(written, 'utf8');
    expect(bytes.indexOf(Buffer.from([0xf0, 0x90, 0x80, 0x80]))).toBe(bytes.indexOf('</x1:high-unicode>') - 4);
  });
});
