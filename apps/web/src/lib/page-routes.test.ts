import { matchPath, matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { pagePatterns, pageRoutes } from './page-routes.ts';

/** Parts that would break an address written by hand: a separator, a query, a fragment, an escape, a space, letters beyond ASCII. */
const ODD = 'a/b?c#d%e f+g&h=ü';

describe('pageRoutes', () => {
  it('writes the addresses the router declares', () => {
    expect(pageRoutes.root()).toBe('/');
    expect(pageRoutes.account()).toBe('/account');
    expect(pageRoutes.signIn()).toBe('/signin');
    expect(pageRoutes.invite('tok-1')).toBe('/invite/tok-1');
    expect(pageRoutes.publicLink('tok-1')).toBe('/s/tok-1');
    expect(pageRoutes.workspace('acme')).toBe('/w/acme');
    expect(pageRoutes.myFiles('acme')).toBe('/w/acme/my');
    expect(pageRoutes.shared('acme')).toBe('/w/acme/shared');
    expect(pageRoutes.recent('acme')).toBe('/w/acme/recent');
    expect(pageRoutes.starred('acme')).toBe('/w/acme/starred');
    expect(pageRoutes.trash('acme')).toBe('/w/acme/trash');
    expect(pageRoutes.folder('acme', 'f1')).toBe('/w/acme/f/f1');
    expect(pageRoutes.document('acme', 'd1')).toBe('/w/acme/d/d1');
    expect(pageRoutes.item('acme', { id: 'f1', kind: 'folder' })).toBe('/w/acme/f/f1');
    expect(pageRoutes.item('acme', { id: 'd1', kind: 'document' })).toBe('/w/acme/d/d1');
    expect(pageRoutes.file('acme', 'x1')).toBe('/w/acme/file/x1');
    expect(pageRoutes.file('acme', 'x1', { version: 'v2' })).toBe('/w/acme/file/x1?version=v2');
    expect(pageRoutes.item('acme', { id: 'x1', kind: 'file' })).toBe('/w/acme/file/x1');
    expect(pageRoutes.search('acme')).toBe('/w/acme/search');
    expect(pageRoutes.settings('acme')).toBe('/w/acme/settings');
    expect(pageRoutes.settings('acme', 'members')).toBe('/w/acme/settings/members');
  });

  it('encodes each slug, id and token as one part of the path, which the router reads back as it was', () => {
    const cases: [pattern: string, path: string, params: Record<string, string>][] = [
      ['/w/:ws', pageRoutes.workspace(ODD), { ws: ODD }],
      ['/w/:ws/my', pageRoutes.myFiles(ODD), { ws: ODD }],
      ['/w/:ws/trash', pageRoutes.trash(ODD), { ws: ODD }],
      ['/w/:ws/f/:folderId', pageRoutes.folder(ODD, `${ODD}2`), { ws: ODD, folderId: `${ODD}2` }],
      ['/w/:ws/d/:docId', pageRoutes.document(ODD, `${ODD}3`), { ws: ODD, docId: `${ODD}3` }],
      ['/w/:ws/file/:fileId', pageRoutes.file(ODD, `${ODD}4`), { ws: ODD, fileId: `${ODD}4` }],
      ['/w/:ws/settings/members', pageRoutes.settings(ODD, 'members'), { ws: ODD }],
      ['/invite/:token', pageRoutes.invite(ODD), { token: ODD }],
      ['/invitations/:id', pageRoutes.invitation(ODD), { id: ODD }],
      ['/s/:token', pageRoutes.publicLink(ODD), { token: ODD }],
    ];
    for (const [pattern, path, params] of cases) {
      expect(path, pattern).not.toMatch(/[?#\s]/);
      // As the router reads an address: the path decoded, then matched.
      expect(matchRoutes([{ path: pattern }], path)?.[0]?.params, `${pattern} ← ${path}`).toEqual(params);
    }
    expect(pageRoutes.folder('acme', 'x/y')).toBe('/w/acme/f/x%2Fy');
  });

  it('matches the patterns other code matches the address against', () => {
    expect(matchPath(pagePatterns.folder, pageRoutes.folder('acme', 'f1'))?.params).toEqual({ ws: 'acme', folderId: 'f1' });
    expect(matchPath(pagePatterns.myFiles, pageRoutes.myFiles('acme'))).not.toBeNull();
    expect(matchPath(pagePatterns.folder, pageRoutes.myFiles('acme'))).toBeNull();
  });

  it('builds a query from pairs, leaving out those with no value, or takes URLSearchParams as they are', () => {
    expect(pageRoutes.search('acme', { q: 'R&D #2 50%' })).toBe('/w/acme/search?q=R%26D+%232+50%25');
    expect(pageRoutes.search('acme', { q: '', in: undefined, type: null })).toBe('/w/acme/search');
    expect(pageRoutes.search('acme', { in: 'f1', q: 'plan' })).toBe('/w/acme/search?in=f1&q=plan');
    expect(
      pageRoutes.search(
        'acme',
        new URLSearchParams([
          ['q', 'a b'],
          ['type', 'pdf'],
        ]),
      ),
    ).toBe('/w/acme/search?q=a+b&type=pdf');
    const query = new URL(pageRoutes.search(ODD, { q: ODD }), 'http://cabinet.test').searchParams;
    expect(query.get('q')).toBe(ODD);
    expect(pageRoutes.document('acme', 'd1', { thread: 't1' })).toBe('/w/acme/d/d1?thread=t1');
    expect(pageRoutes.document('acme', 'd1', { thread: null })).toBe('/w/acme/d/d1');
  });

  it('sends sign-in back to the page it came from', () => {
    expect(pageRoutes.signIn({ returnTo: '/w/acme/search?q=a&type=pdf', reason: 'expired' })).toBe(
      '/signin?returnTo=%2Fw%2Facme%2Fsearch%3Fq%3Da%26type%3Dpdf&reason=expired',
    );
    expect(pageRoutes.signIn({ reason: 'expired' })).toBe('/signin?reason=expired');
    expect(new URL(pageRoutes.signIn({ returnTo: `/w/${ODD}` }), 'http://cabinet.test').searchParams.get('returnTo')).toBe(`/w/${ODD}`);
    expect(pageRoutes.providerSignIn('/invite/a b&c')).toBe('/auth/login?returnTo=%2Finvite%2Fa+b%26c');
    expect(new URL(pageRoutes.providerSignIn(pageRoutes.invite(ODD)), 'http://cabinet.test').searchParams.get('returnTo')).toBe(pageRoutes.invite(ODD));
  });

  it('opens the provider at its sign-up form when asked, with the email filled in when given', () => {
    expect(pageRoutes.providerSignUp('/')).toBe('/auth/login?returnTo=%2F&signup=1');
    const read = (path: string) => Object.fromEntries(new URL(path, 'http://cabinet.test').searchParams);
    expect(read(pageRoutes.providerSignUp(pageRoutes.invite(ODD), 'ann+x@example.com'))).toEqual({
      returnTo: pageRoutes.invite(ODD),
      signup: '1',
      loginHint: 'ann+x@example.com',
    });
    expect(read(pageRoutes.providerSignIn('/w/acme', 'ann@example.com'))).toEqual({ returnTo: '/w/acme', loginHint: 'ann@example.com' });
  });
});
