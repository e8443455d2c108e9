import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawGet as get } from '../../testing/raw-get.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

const favicon = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../web/public/favicon.ico');

describe('the browser app as served', () => {
  let t: TestApp;
  let dist: string;
  const script = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word ${i}`))};\n`;
  const asset = '/assets/index-Dq3xY1bZ.js';

  beforeAll(async () => {
    // A build as apps/web makes it: hashed assets with their Brotli and gzip copies, index.html, the favicon.
    dist = mkdtempSync(path.join(os.tmpdir(), 'cabinet-web-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(
      path.join(dist, 'index.html'),
      `<!doctype html><html><head><link rel="icon" href="/favicon.ico" sizes="48x48"></head><body><script type="module" src="${asset}"></script></body></html>`,
    );
    writeFileSync(path.join(dist, asset), script);
    writeFileSync(path.join(dist, `${asset}.br`), brotliCompressSync(script));
    writeFileSync(path.join(dist, `${asset}.gz`), gzipSync(script));
    copyFileSync(favicon, path.join(dist, 'favicon.ico'));
    t = await startTestApp({}, { webDist: dist });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('sends a hashed asset compressed as the browser accepts, kept for a year', async () => {
    const br = await get(`${t.url}${asset}`, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^(text|application)\/javascript; charset=utf-8$/);
    expect(br.headers['content-length']).toBe(String(br.body.length));
    expect(br.body.length).toBeLessThan(Buffer.byteLength(script) / 2);
    expect(brotliDecompressSync(br.body).toString()).toBe(script);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toBe('Accept-Encoding');

    const gz = await get(`${t.url}${asset}`, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['content-type']).toBe(br.headers['content-type']);
    expect(gunzipSync(gz.body).toString()).toBe(script);
    expect(gz.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(gz.headers.vary).toBe('Accept-Encoding');

    const plain = await get(`${t.url}${asset}`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toBe(br.headers['content-type']);
    expect(plain.body.toString()).toBe(script);
    expect(plain.headers['content-length']).toBe(String(Buffer.byteLength(script)));
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers.vary).toBe('Accept-Encoding');
  });

  it('never answers a compressed copy by its own name, nor a missing asset with the app', async () => {
    expect((await get(`${t.url}${asset}.br`)).status).toBe(404);
    const missing = await get(`${t.url}/assets/index-gone.js`, { 'accept-encoding': 'br' });
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toContain('application/json');
  });

  it('has index.html revalidated: no-cache with a validator, 304 while unchanged', async () => {
    const page = await get(`${t.url}/w/team`, { 'accept-encoding': 'br' });
    expect(page.status).toBe(200);
    expect(page.body.toString()).toContain(asset);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const etag = page.headers.etag!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const lastModified = page.headers['last-modified']!;

    const again = await get(`${t.url}/`, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toBe('no-cache');
    expect((await get(`${t.url}/`, { 'if-modified-since': lastModified })).status).toBe(304);
    // If-None-Match decides when both are sent (RFC 9110 §13.2.2).
    expect((await get(`${t.url}/`, { 'if-none-match': '"another"', 'if-modified-since': lastModified })).status).toBe(200);
    expect((await get(`${t.url}/`, { 'if-modified-since': new Date(Date.parse(lastModified) - 60_000).toUTCString() })).status).toBe(200);
  });

  it('serves the favicon, revalidated', async () => {
    const icon = await get(`${t.url}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(icon.headers['content-type']).toBe('image/vnd.microsoft.icon');
    expect(icon.body.equals(readFileSync(favicon))).toBe(true);
    expect(icon.headers['cache-control']).toBe('no-cache');
    expect((await get(`${t.url}/favicon.ico`, { 'if-none-match': icon.headers.etag! })).status).toBe(304);
  });
});
