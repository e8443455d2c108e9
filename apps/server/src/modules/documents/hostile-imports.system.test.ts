import { describe, expect, it } from 'vitest';
import { documentFiles } from '../../testing/document-files.ts';
import { deflatedZip } from '../../testing/preview-files.ts';
import { type Person } from '../../testing/given.ts';
import { type Answer } from '../../testing/route-call.ts';
import { useTestApp, type TestApp } from '../../testing/test-app.ts';

// Imports the parsers' workers must survive: bombs, files past every limit, and workers ended for memory or time.
const test = useTestApp();
const { importFile, exportAs, children, docx } = documentFiles(() => test.app.url);

describe('importing hostile files', () => {
  /** Imports while asking the server whether it is alive (the person's own): it answers, whatever the import is doing. */
  async function importWhileServing(person: Person, fileName: string, bytes: Uint8Array | string, server: TestApp = test.app) {
    const importing = importFile(person, person.workspace.homeId, fileName, bytes);
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    return importing;
  }
  const expectTooComplex = (res: Answer<unknown>, why: RegExp) => {
    expect(res).toFail('invalid_input');
    expect(res.error?.message).toMatch(/too complex to import/);
    expect(res.error?.message).toMatch(why);
  };

  it('refuses a Word file that unpacks past the import limit (a zip bomb), before reading it', async () => {
    const ada = await test.given.person();
    const bomb = deflatedZip([
      { name: '[Content_Types].xml', input: '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>' },
      {
        name: 'word/document.xml',
        input: `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${'<w:p><w:r><w:t>a</w:t></w:r></w:p>'.repeat(1_200_000)}</w:body></w:document>`,
      },
    ]);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const res = await importWhileServing(ada, 'bomb.docx', bomb);
    expect(res).toFail('file_too_large');
    expect(res.error?.message).toMatch(/unpacked/);
    expect(await children(ada, ada.workspace.homeId)).toEqual([]);
  });

  it('refuses a Word file with more paragraphs than an import takes', async () => {
    const ada = await test.given.person();
    const res = await importWhileServing(ada, 'long.docx', await docx('<w:p><w:r><w:t>a</w:t></w:r></w:p>'.repeat(40_000)));
    expectTooComplex(res, /more than 30,000 paragraphs/);
  });

  it('imports 20,000 Markdown paragraphs whole', async () => {
    const ada = await test.given.person();
    const source = Array.from({ length: 20_000 }, (_, i) => `Paragraph ${i + 1} of the long file.`).join('\n\n');
    const res = await importWhileServing(ada, 'long.md', source);
    expect(res.status).toBe(201);
    // Written in a worker too: the server answers while a long document is exported.
    const exporting = exportAs(ada, res.body.id, 'markdown');
    expect((await fetch(`${test.app.url}/healthz`)).status).toBe(200);
    expect((await exporting).bytes.toString('utf8')).toBe(source);
  });

  it('refuses 2 MiB of <p>a</p> as too many elements', async () => {
    const ada = await test.given.person();
    expectTooComplex(await importWhileServing(ada, 'many.html', '<p>a</p>'.repeat(262_144)), /more than 30,000 paragraphs/);
    expect(await children(ada, ada.workspace.homeId)).toEqual([]);
  });

  it('refuses 10 MB of Markdown on one line, without overflowing the parser', async () => {
    const ada = await test.given.person();
    expectTooComplex(await importWhileServing(ada, 'line.md', 'a'.repeat(10_000_000)), /a line is longer than 20,000 characters/);
  });

  it('names a document from a file whose name is not a valid item name by a name that is', async () => {
    const ada = await test.given.person();
    const res = await importFile(ada, ada.workspace.homeId, '.. .md', '# Dots');
    expect(res.status).toBe(201);
    expect(res.body.name).toBe('Imported document');
    expect((await importFile(ada, ada.workspace.homeId, '. .md', '# Dot', 'keep_both')).body.name).toBe('Imported document (2)');
  });

  describe('with a worker memory limit a file can exceed', () => {
    const small = useTestApp({ WORKER_THREADS: '1', WORKER_MEMORY_MB: '64' });

    it('ends the worker, answers the file is too complex, and the next import gets a new worker', async () => {
      const ada = await small.given.person();
      // Within every limit checked before reading (19 MB, 25,000 paragraphs), but more than 64 MB to read.
      const heavy = `<p>${'x'.repeat(760)}</p>`.repeat(25_000);
      expectTooComplex(await importWhileServing(ada, 'heavy.html', heavy, small.app), /more memory than the server gives one file/);
      const next = await importWhileServing(ada, 'light.md', '# Still here', small.app);
      expect(next.status).toBe(201);
      expect(await children(ada, ada.workspace.homeId)).toEqual(['light']);
    });
  });

  describe('with a short time limit and one worker', () => {
    const quick = useTestApp({ WORKER_THREADS: '1', WORKER_TIMEOUT_SECONDS: '2' });

    // A paragraph of 300,000 characters of escaped punctuation: within the line limit, but its parser takes minutes.
    const slow = Array.from({ length: 15 }, () => 'a\\*'.repeat(6_666)).join('\n');

    it('ends a worker that reads too long, and answers the file is too complex', async () => {
      const ada = await quick.given.person();
      expectTooComplex(await importWhileServing(ada, 'slow.md', slow, quick.app), /took longer than 2 seconds/);
      expect((await importFile(ada, ada.workspace.homeId, 'quick.md', '# Quick')).status).toBe(201);
    });

    it('answers rate_limited when more imports wait than the queue holds', { timeout: 180_000 }, async () => {
      const ada = await quick.given.person();
      // One worker and four places in the queue: the sixth import at once is refused straight away.
      const all = await Promise.all(Array.from({ length: 6 }, (_, i) => importFile(ada, ada.workspace.homeId, `slow ${i}.md`, slow)));
      const refused = all.filter((r) => r.status === 429);
      expect(refused.length).toBeGreaterThan(0);
      expect(refused[0]).toFail('rate_limited');
      for (const r of all.filter((r) => r.status !== 429)) expectTooComplex(r, /took longer/);
    });
  });
});
