import { describe, expect, it } from 'vitest';
import { davHref, davPath, davPathOf } from './dav-path.ts';

describe('paths under /dav/', () => {
  it('takes a target apart into decoded, NFC names, noting a closing slash', () => {
    expect(davPath('/dav/acme/My%20files/res-%e2%82%ac')).toStrictEqual({ names: ['acme', 'My files', 'res-€'], slash: false });
    expect(davPath('/dav/acme/Workspace/litmus/')).toStrictEqual({ names: ['acme', 'Workspace', 'litmus'], slash: true });
    expect(davPath('/dav/')).toStrictEqual({ names: [], slash: true });
    expect(davPath('/dav')).toStrictEqual({ names: [], slash: true });
    expect(davPath('/dav/a/Cafe%CC%81?x=1')).toStrictEqual({ names: ['a', 'Café'], slash: false });
  });

  it.each([
    ['/dav/acme/frag/#ment', /fragment/],
    ['/dav/acme/a%2Fb', /holds "\/"/],
    ['/dav/acme/a%00b', /control/],
    ['/dav/acme/../x', /"\.\."/],
    ['/dav/acme/./x', /"\."/],
    ['/dav/acme//x', /empty/],
    ['/dav/acme/%E2%82', /percent-encoded/],
  ])('refuses %s', (target, why) => {
    expect(() => davPath(target)).toThrow(why);
  });

  it('reads a Destination on this server, as a URI or a path, and refuses one elsewhere', () => {
    expect(davPathOf('http://127.0.0.1:8080/dav/acme/Workspace/copydest', '127.0.0.1:8080').names).toStrictEqual(['acme', 'Workspace', 'copydest']);
    expect(davPathOf('/dav/acme/Workspace/copydest', undefined).names).toStrictEqual(['acme', 'Workspace', 'copydest']);
    expect(() => davPathOf('http://example.com/dav/acme/x', '127.0.0.1:8080')).toThrow(/another server/);
    expect(() => davPathOf('http://127.0.0.1:8080/elsewhere/x', '127.0.0.1:8080')).toThrow(/not under \/dav/);
    expect(() => davPathOf('ftp://127.0.0.1:8080/dav/x', '127.0.0.1:8080')).toThrow(/another server/);
    expect(() => davPathOf('not a uri', '127.0.0.1:8080')).toThrow(/neither an absolute URI/);
    // Taken as sent: what a URL parser would resolve is refused as it is in a path.
    expect(() => davPathOf('http://h:8080/dav/acme/a/%2e%2e/b', 'h:8080')).toThrow(/"\.\."/);
    expect(() => davPathOf('http://h/dav/../api/x', 'h')).toThrow(/"\.\."/);
    expect(() => davPathOf('http://h/dav/a\\..\\b', 'h')).not.toThrow();
    // The scheme's default port is the same server; user information is not.
    expect(davPathOf('http://H:80/dav/acme/x', 'h').names).toStrictEqual(['acme', 'x']);
    expect(() => davPathOf('http://u@h/dav/acme/x', 'h')).toThrow(/another server/);
    expect(davPath('/dav/a/b+c%2fd'.replace('%2fd', 'd')).names).toStrictEqual(['a', 'b+cd']);
    expect(() => davPath('/dav/a/b%2fc')).toThrow(/holds "\/"/);
    expect(() => davPath('/dav/a/b%C2%85c')).toThrow(/control/);
  });

  it('puts names back as an href, a collection with its slash', () => {
    expect(davHref(['acme', 'My files', 'a#b?%'], false)).toBe('/dav/acme/My%20files/a%23b%3F%25');
    expect(davHref(['acme', 'Workspace'], true)).toBe('/dav/acme/Workspace/');
    expect(davPath(davHref(['acme', 'é €', 'x'], false)).names).toStrictEqual(['acme', 'é €', 'x']);
  });
});
