import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collabTestApp } from '../../testing/collab-client.ts';
import { documentFiles } from '../../testing/document-files.ts';
import { given, type Person } from '../../testing/given.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

// Imports the parsers' workers must survive: bombs, files past every limit, and workers ended for memory or time.
const app = collabTestApp();
const { importFile, exportAs, children, docx } = documentFiles(() => app.t.url);

describe('importing hostile files', () => {
  /** Imports while asking the server whether it is alive: it answers, whatever the import is doing. */
  async function importWhileServing(person: Person, fileName: string, bytes: Uint8Array | string, server: TestApp = app.t) {
    const importing = importFile(person, person.workspace.homeId, fileName, bytes, '', server.url);
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    return importing;
  }
  const expectTooComplex = (res: { status: number; body: any }, why: RegExp) => {
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/too complex to import/) });
    expect(res.body.error.message).toMatch(why);
  };

  it('refuses a Word file that unpacks past the import limit (a zip bomb), before reading it', async () => {
    const ada = await app.g.person();
    const zip = new JSZip();
    zip.file('[Content_Types].xml', '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>');
    zip.file(
      'word/document.xml',
      `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${'<w:p><w:r><w:t>a</w:t></w:r></w:p>'.repeat(1_200_000)}</w:body></w:document>`,
    );
    const bomb = await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE', compressionOptions: { level: 9 } });
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const res = await importWhileServing(ada, 'bomb.docx', bomb);
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({ code: 'file_too_large', message: expect.stringMatching(/unpacked/) });
    expect(await children(ada, ada.workspace.homeId)).toEqual([]);
  });

  it('refuses a Word file with more paragraphs than an import takes', async () => {
    const ada = await app.g.person();
    const res = await importWhileServing(ada, 'long.docx', await docx('<w:p><w:r><w:t>a</w:t></w:r></w:p>'.repeat(40_000)));
    expectTooComplex(res, /more than 30,000 paragraphs/);
  });

  it('imports 20,000 Markdown paragraphs whole', async () => {
    const ada = await app.g.person();
    const source = Array.from({ length: 20_000 }, (_, i) => `Paragraph ${i + 1} of the long file.`).join('\n\n');
    const res = await importWhileServing(ada, 'long.md', source);
    expect(res.status).toBe(201);
    // Written in a worker too: the server answers while a long document is exported.
    const exporting = exportAs(ada, res.body.id, 'markdown');
    expect((await fetch(`${app.t.url}/healthz`)).status).toBe(200);
    expect((await exporting).bytes.toString('utf8')).toBe(source);
  });

  it('refuses 2 MiB of <p>a</p> as too many elements', async () => {
    const ada = await app.g.person();
    expectTooComplex(await importWhileServing(ada, 'many.html', '<p>a</p>'.repeat(262_144)), /more than 30,000 paragraphs/);
    expect(await children(ada, ada.workspace.homeId)).toEqual([]);
  });

  it('refuses 10 MB of Markdown on one line, without overflowing the parser', async () => {
    const ada = await app.g.person();
    expectTooComplex(await importWhileServing(ada, 'line.md', 'a'.repeat(10_000_000)), /a line is longer than 20,000 characters/);
  });

  it('names a document from a file whose name is not a valid item name by a name that is', async () => {
    const ada = await app.g.person();
    const res = await importFile(ada, ada.workspace.homeId, '.. .md', '# Dots');
    expect(res.status).toBe(201);
    expect(res.body.name).toBe('Imported document');
    expect((await importFile(ada, ada.workspace.homeId, '. .md', '# Dot', '&onConflict=keep_both')).body.name).toBe('Imported document (2)');
  });

  describe('with a worker memory limit a file can exceed', () => {
    let small: TestApp;
    beforeAll(async () => {
      small = await startTestApp({ WORKER_THREADS: '1', WORKER_MEMORY_MB: '64' });
    });
    afterAll(() => small?.close());

    it('ends the worker, answers the file is too complex, and the next import gets a new worker', async () => {
      const ada = await given(small.ctx, small.url).person();
      // Within every limit checked before reading (19 MB, 25,000 paragraphs), but more than 64 MB to read.
      const heavy = `<p>${'x'.repeat(760)}</p>`.repeat(25_000);
      expectTooComplex(await importWhileServing(ada, 'heavy.html', heavy, small), /more memory than the server gives one file/);
      const next = await importWhileServing(ada, 'light.md', '# Still here', small);
      expect(next.status).toBe(201);
      expect(await children(ada, ada.workspace.homeId)).toEqual(['light']);
    });
  });

  describe('with a short time limit and one worker', () => {
    let quick: TestApp;
    beforeAll(async () => {
      quick = await startTestApp({ WORKER_THREADS: '1', WORKER_TIMEOUT_SECONDS: '2' });
    });
    afterAll(() => quick?.close());

    // A paragraph of 300,000 characters of escaped punctuation: within the line limit, but its parser takes minutes.
    const slow = Array.from({ length: 15 }, () => 'a\\*'.repeat(6_666)).join('\n');

    it('ends a worker that reads too long, and answers the file is too complex', async () => {
      const ada = await given(quick.ctx, quick.url).person();
      expectTooComplex(await importWhileServing(ada, 'slow.md', slow, quick), /took longer than 2 seconds/);
      expect((await importFile(ada, ada.workspace.homeId, 'quick.md', '# Quick', '', quick.url)).status).toBe(201);
    });

    it('answers rate_limited when more imports wait than the queue holds', { timeout: 180_000 }, async () => {
      const ada = await given(quick.ctx, quick.url).person();
      // One worker and four places in the queue: the sixth import at once is refused straight away.
      const all = await Promise.all(Array.from({ length: 6 }, (_, i) => importFile(ada, ada.workspace.homeId, `slow ${i}.md`, slow, '', quick.url)));
      const refused = all.filter((r) => r.status === 429);
      expect(refused.length).toBeGreaterThan(0);
      expect(refused[0]!.body.error.code).toBe('rate_limited');
      for (const r of all.filter((r) => r.status !== 429)) expectTooComplex(r, /took longer/);
    });
  });
});
