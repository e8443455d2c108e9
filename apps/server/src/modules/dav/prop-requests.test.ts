import { describe, expect, it } from 'vitest';
import { readPropFind, readPropPatch } from './prop-requests.ts';
import { readXml } from './xml-read.ts';

const xml = (s: string) => readXml(Buffer.from(s));
const NS = 'http://example.com/neon/litmus/';

describe('PROPFIND and PROPPATCH bodies', () => {
  it('reads what a PROPFIND asks for', () => {
    expect(readPropFind(undefined)).toStrictEqual({ kind: 'allprop', include: [] });
    expect(readPropFind(xml('<propfind xmlns="DAV:"><foobar/><allprop/></propfind>'))).toStrictEqual({ kind: 'allprop', include: [] });
    expect(readPropFind(xml('<D:propfind xmlns:D="DAV:"><D:propname/></D:propfind>'))).toStrictEqual({ kind: 'propname' });
    expect(
      readPropFind(xml(`<propfind xmlns="DAV:"><prop><getcontentlength xmlns="DAV:"/><foo xmlns="${NS}"/><nonamespace xmlns=""/></prop></propfind>`)),
    ).toStrictEqual({
      kind: 'prop',
      names: [
        { ns: 'DAV:', local: 'getcontentlength' },
        { ns: NS, local: 'foo' },
        { ns: '', local: 'nonamespace' },
      ],
    });
    expect(readPropFind(xml('<propfind xmlns="DAV:"><allprop/><include><quota-used-bytes/></include></propfind>'))).toStrictEqual({
      kind: 'allprop',
      include: [{ ns: 'DAV:', local: 'quota-used-bytes' }],
    });
    expect(() => readPropFind(xml('<propfind xmlns="DAV:"/>'))).toThrow(/allprop, propname or prop/);
    expect(() => readPropFind(xml('<lockinfo xmlns="DAV:"/>'))).toThrow(/DAV:propfind/);
  });

  it('reads a PROPPATCH as its instructions in document order', () => {
    const steps = readPropPatch(
      xml(
        `<propertyupdate xmlns="DAV:"><remove><prop><removeset xmlns="${NS}"/></prop></remove>` +
          `<set><prop><removeset xmlns="${NS}">x</removeset></prop></set><set><prop><removeset xmlns="${NS}">y</removeset></prop></set></propertyupdate>`,
      ),
    );
    expect(steps.map((s) => (s.op === 'set' ? `set ${s.value.children.join('')}` : `remove ${s.name.local}`))).toStrictEqual([
      'remove removeset',
      'set x',
      'set y',
    ]);
    expect(() => readPropPatch(xml('<propertyupdate xmlns="DAV:"/>'))).toThrow(/at least one/);
  });
});
