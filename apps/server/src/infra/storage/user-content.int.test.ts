import { request, type IncomingHttpHeaders } from 'node:http';
import { describe, expect, it } from 'vitest';
import { filesApi, urlOf } from '@cabinet/contracts';
import { freePort, useTestApp } from '../../testing/test-app.ts';
import { contentSecurityPolicy } from '../web/spa.ts';

/**
 * One server, two host names: the app's (127.0.0.1, PUBLIC_URL) and the one that serves uploaded
 * bytes (localhost, USER_CONTENT_URL). Requests go to the loopback address with the host name in
 * `Host`, as a browser's would.
 */
function send(url: string, o: { method?: string; headers?: Record<string, string> } = {}) {
  const target = new URL(url);
  const host = target.host;
  target.hostname = '127.0.0.1';
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
    request(target, { method: o.method ?? 'GET', headers: { host, ...o.headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

describe('USER_CONTENT_URL', () => {
  let contentUrl = '';
  const test = useTestApp(async () => {
    const port = await freePort();
    contentUrl = `http://localhost:${port}`;
    return { PORT: String(port), USER_CONTENT_URL: contentUrl };
  });

  it('serves uploaded bytes on their own origin only, readable by the app by Range, and nothing else there', async () => {
    const ada = await test.given.person();
    const page = await test.given.upload(ada, ada.workspace.homeId, 'page.html', Buffer.from('<script>parent.alert(1)</script>'));
    const picture = await test.given.upload(ada, ada.workspace.homeId, 'pixel.png', Buffer.from('89504e470d0a1a0a', 'hex'));

    const locationOf = async (id: string) => {
      const redirect = await send(`${test.app.url}${urlOf(filesApi.content, { id }, {})}`, { headers: { authorization: `Bearer ${ada.token}` } });
      expect(redirect.status).toBe(302);
      return redirect.headers.location!;
    };
    const location = await locationOf(picture.body.item.id);
    expect(location.startsWith(`${contentUrl}/storage/blob?`)).toBe(true);

    // The bytes there, in part, for the app's pages (the viewer reads by Range).
    const appOrigin = test.app.url;
    const ranged = await send(location, { headers: { range: 'bytes=0-3', origin: appOrigin } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers['content-range']).toBe('bytes 0-3/8');
    expect(ranged.headers['access-control-allow-origin']).toBe(appOrigin);
    expect(ranged.headers['access-control-expose-headers']).toContain('content-range');
    expect(ranged.headers['content-security-policy']).toBe("sandbox; default-src 'none'");
    expect(ranged.headers['x-content-type-options']).toBe('nosniff');
    const preflight = await send(location, {
      method: 'OPTIONS',
      headers: { origin: appOrigin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'range' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-headers']).toBe('range');

    // A page's bytes still download, never shown as a page.
    expect((await send(await locationOf(page.body.item.id))).headers['content-disposition']).toMatch(/^attachment/);

    // The same signed address on the app's origin serves nothing.
    const onApp = new URL(location);
    expect((await send(`${appOrigin}${onApp.pathname}${onApp.search}`)).status).toBe(404);

    // The content origin is not the app: no page, no API, no sign-in; its health checks answer.
    for (const path of ['/', '/signin', '/api/v1/me', '/auth/login', '/idp/.well-known/openid-configuration', '/s/abc']) {
      const res = await send(`${contentUrl}${path}`);
      expect(res.status, path).toBe(404);
      expect(res.headers['set-cookie'], path).toBeUndefined();
    }
    expect((await send(`${contentUrl}/readyz`)).status).toBe(200);

    // The app's page lets its scripts read and show what comes from there.
    expect(test.app.ctx.storage.browserOrigin).toBe(contentUrl);
    const csp = contentSecurityPolicy(test.app.ctx.storage.browserOrigin);
    for (const directive of ['img-src', 'media-src', 'connect-src']) expect(csp.split('; ').find((d) => d.startsWith(directive))).toContain(contentUrl);
  });
});
