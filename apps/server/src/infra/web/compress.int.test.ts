import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { rawGet as get } from '../../testing/raw-get.ts';
import { useTestApp } from '../../testing/test-app.ts';
import { acceptedEncoding } from './compress.ts';

describe('compressed API answers', () => {
  const test = useTestApp();

  it('sends a large JSON answer as Brotli or gzip, as the client accepts, and plain to others', async () => {
    const plain = await get(`${test.app.url}/api/v1/openapi.json`);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toContain('Accept-Encoding');
    expect(plain.body.length).toBeGreaterThan(10_000);
    const json = plain.body.toString();

    const br = await get(`${test.app.url}/api/v1/openapi.json`, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('application/json');
    expect(br.headers['content-length']).toBe(String(br.body.length));
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(br.body.length).toBeLessThan(json.length / 4);
    expect(brotliDecompressSync(br.body).toString()).toBe(json);

    const gz = await get(`${test.app.url}/api/v1/openapi.json`, { 'accept-encoding': 'br;q=0, gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(json);
  });

  it('sends a page of a folder (compressed at once, below the size sent to the thread pool) whole in either encoding', async () => {
    const ada = await test.given.person();
    for (let i = 0; i < 25; i++) await test.given.folder(ada, ada.workspace.homeId, `Folder ${i}`);
    const url = `${test.app.url}/api/v1/workspaces/${ada.workspace.id}/items/${ada.workspace.homeId}/children?limit=25`;
    const auth = { authorization: `Bearer ${ada.token}` };
    const plain = await get(url, auth);
    expect(plain.status).toBe(200);
    expect(plain.body.length).toBeGreaterThan(10_000);
    expect(plain.body.length).toBeLessThan(128 * 1024);
    const json = plain.body.toString();
    const br = await get(url, { ...auth, 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body.length).toBeLessThan(json.length / 3);
    expect(brotliDecompressSync(br.body).toString()).toBe(json);
    const gz = await get(url, { ...auth, 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(json);
  });

  it("sends the API's reference page, its scripts and the description it reads compressed, each compressed once", async () => {
    for (const file of ['/api/docs/json', '/api/docs/static/swagger-ui-bundle.js', '/api/docs/static/swagger-ui.css']) {
      const plain = await get(`${test.app.url}${file}`);
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toContain('Accept-Encoding');
      const br = await get(`${test.app.url}${file}`, { 'accept-encoding': 'gzip, br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['content-length']).toBe(String(br.body.length));
      expect(br.body.length).toBeLessThan(plain.body.length / 3);
      expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
      // Kept: the same bytes again, whatever the spelling of the address.
      const again = await get(`${test.app.url}${file.replace('/static/s', '/static/%73')}`, { 'accept-encoding': 'br' });
      expect(again.body.equals(br.body)).toBe(true);
      const gz = await get(`${test.app.url}${file}`, { 'accept-encoding': 'gzip' });
      expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    }
    // A HEAD says the file as it is, not an empty body's compressed length.
    const head = await test.app.app.inject({ method: 'HEAD', url: '/api/docs/static/swagger-ui.css', headers: { 'accept-encoding': 'br' } });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-encoding']).toBeUndefined();
    expect(Number(head.headers['content-length'])).toBeGreaterThan(10_000);
    // Asked again with its ETag: not modified, and varying as the answer it stands for does.
    const css = await get(`${test.app.url}/api/docs/static/swagger-ui.css`, { 'accept-encoding': 'br' });
    const unchanged = await get(`${test.app.url}/api/docs/static/swagger-ui.css`, { 'accept-encoding': 'br', 'if-none-match': String(css.headers.etag) });
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.vary).toContain('Accept-Encoding');
    const missing = await get(`${test.app.url}/api/docs/static/missing.js`, { 'accept-encoding': 'br' });
    expect(missing.status).toBe(404);
    expect(missing.headers['content-encoding']).toBeUndefined();
  });

  it('leaves small answers, errors included, as they are', async () => {
    const small = await get(`${test.app.url}/api/v1/me`, { 'accept-encoding': 'br, gzip' });
    expect(small.status).toBe(401);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString())).toMatchObject({ error: { code: 'unauthenticated' } });
  });

  it('never buffers a live event stream', async () => {
    const ada = await test.given.person();
    const controller = new AbortController();
    // Fetched: the stream is read as it comes, and its encoding looked at.
    const res = await fetch(`${test.app.url}/api/v1/workspaces/${ada.workspace.id}/events`, {
      headers: { authorization: `Bearer ${ada.token}`, 'accept-encoding': 'br, gzip' },
      signal: controller.signal,
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    expect(res.headers.get('content-encoding')).toBeNull();
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    const folder = await test.given.folder(ada, ada.workspace.rootId, 'Live');
    let text = '';
    while (!text.includes(folder.id)) text += (await reader.read()).value ?? '';
    controller.abort();
  });

  it('reads Accept-Encoding weights', () => {
    expect(acceptedEncoding('gzip, deflate, br')).toBe('br');
    expect(acceptedEncoding('gzip;q=1, br;q=0.5')).toBe('gzip');
    expect(acceptedEncoding('br;q=0, gzip;q=0')).toBeUndefined();
    expect(acceptedEncoding('*')).toBe('br');
    expect(acceptedEncoding('identity')).toBeUndefined();
    expect(acceptedEncoding(undefined)).toBeUndefined();
  });
});
