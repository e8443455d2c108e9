import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { crc32, deflateRawSync, deflateSync } from 'node:zlib';
import JSZip from 'jszip';
import pdfmake from 'pdfmake';
import type { Content, TDocumentDefinitions } from 'pdfmake';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { WorkerPool } from '../../../infra/workers/pool.ts';
import { MARK_END, MARK_START } from '../search-query.ts';
import { bytesNeeded, extractText, MAX_EXTRACTED_CHARS, TextSink, type Extraction } from './index.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

const pools: WorkerPool[] = [];
const pool = (timeoutMs: number) => {
  const workers = new WorkerPool({ threads: 1, queue: 4, memoryMb: 512, timeoutMs });
  pools.push(workers);
  return workers;
};
afterAll(() => Promise.all(pools.map((p) => p.close())));
const workers = pool(60_000);

const extract = (bytes: Uint8Array | string, name: string, mimeType = 'application/octet-stream', size?: number) =>
  extractText(workers, { bytes: typeof bytes === 'string' ? Buffer.from(bytes) : bytes, name, mimeType, size });
const textOf = (e: Extraction) => {
  expect(e).toMatchObject({ state: 'ready' });
  return (e as { text: string }).text;
};

async function zipOf(files: Record<string, string>): Promise<Uint8Array> {
  const zip = new JSZip();
  for (const [name, content] of Object.entries(files)) zip.file(name, content);
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

/** A zip written by hand, so an entry can declare an unpacked size other than its real one (as a zip bomb does). */
function rawZip(entries: { name: string; data: Buffer; declaredSize?: number }[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data, declaredSize } of entries) {
    const packed = deflateRawSync(data, { level: 1 });
    const fields = (header: Buffer, at: number) => {
      header.writeUInt16LE(20, at); // version needed
      header.writeUInt16LE(0, at + 2); // flags
      header.writeUInt16LE(8, at + 4); // deflate
      header.writeUInt32LE(0x00210000, at + 6); // 1980-01-01 00:00
      header.writeUInt32LE(crc32(data), at + 10);
      header.writeUInt32LE(packed.length, at + 14);
      header.writeUInt32LE(declaredSize ?? data.length, at + 18);
      header.writeUInt16LE(Buffer.byteLength(name), at + 22);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    fields(local, 4);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // made by
    fields(central, 6);
    central.writeUInt32LE(offset, 42);
    locals.push(local, Buffer.from(name), packed);
    centrals.push(central, Buffer.from(name));
    offset += 30 + Buffer.byteLength(name) + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

const fontsDir = path.join(path.dirname(createRequire(import.meta.url).resolve('pdfmake/package.json')), 'fonts', 'Roboto');
pdfmake.setFonts({
  Roboto: {
    normal: path.join(fontsDir, 'Roboto-Regular.ttf'),
    bold: path.join(fontsDir, 'Roboto-Medium.ttf'),
    italics: path.join(fontsDir, 'Roboto-Italic.ttf'),
    bolditalics: path.join(fontsDir, 'Roboto-MediumItalic.ttf'),
  },
});
pdfmake.setUrlAccessPolicy(() => false);
pdfmake.setLocalAccessPolicy((file) => path.resolve(file).startsWith(fontsDir + path.sep));
const pdf = async (content: Content[], extra: Record<string, unknown> = {}) =>
  new Uint8Array(await pdfmake.createPdf({ content, ...extra } as TDocumentDefinitions).getBuffer());

const DOCX_PARTS = {
  '[Content_Types].xml':
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  '_rels/.rels':
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
};
const docxBody = (paragraphs: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${paragraphs.map((p) => `<w:p><w:r><w:t>${p}</w:t></w:r></w:p>`).join('')}</w:body></w:document>`;

describe('TextSink', () => {
  it('takes a document’s text as a file’s: control characters and the snippet marks separate words, soft hyphens and lone surrogate halves are dropped, whitespace made one, at most the cap', () => {
    const sink = new TextSink();
    sink.text(`  Budget\u0000for ${MARK_START}2027${MARK_END}\ud800 \n\n\n next\tline  bud\u00adget`);
    expect(sink.result()).toEqual({ text: 'Budget for 2027\nnext line budget', truncated: false });
    const long = new TextSink();
    long.text('a'.repeat(MAX_EXTRACTED_CHARS + 10));
    expect(long.result()).toEqual({ text: 'a'.repeat(MAX_EXTRACTED_CHARS), truncated: true });
  });
});

describe('bytesNeeded', () => {
  it('reads the head of text, whole documents and images up to their caps, and nothing of a type it does not read', () => {
    const GB = 2 ** 30;
    expect(bytesNeeded({ name: 'server.log', mimeType: 'text/plain', size: 2 * GB })).toBe(4 * 2 ** 20);
    expect(bytesNeeded({ name: 'notes.md', mimeType: 'application/octet-stream', size: 1000 })).toBe(1000);
    expect(bytesNeeded({ name: 'page.html', mimeType: 'text/html', size: GB })).toBe(16 * 2 ** 20);
    expect(bytesNeeded({ name: 'report.pdf', mimeType: 'application/pdf', size: 5_000_000 })).toBe(5_000_000);
    expect(bytesNeeded({ name: 'huge.pdf', mimeType: 'application/pdf', size: 201 * 2 ** 20 })).toBe('tooLarge');
    expect(bytesNeeded({ name: 'photo.jpg', mimeType: 'image/jpeg', size: 51 * 2 ** 20 })).toBe('tooLarge');
    expect(bytesNeeded({ name: 'scan', mimeType: 'image/png', size: 300 })).toBe(300);
    expect(bytesNeeded({ name: 'budget.xlsx', mimeType: '', size: 300 })).toBe(300);
    expect(bytesNeeded({ name: 'movie.mp4', mimeType: 'video/mp4', size: GB })).toBeNull();
    expect(bytesNeeded({ name: 'archive.zip', mimeType: 'application/zip', size: 10 })).toBeNull();
    expect(bytesNeeded({ name: 'letter.rtf', mimeType: 'text/rtf', size: 10 })).toBeNull();
  });
});

// Each worker loads the parsers first: seconds on a busy machine.
describe('extractText', { timeout: 60_000 }, () => {
  it('reads text files: BOM, Windows-1252 and UTF-16, whitespace runs made one, control characters dropped', async () => {
    expect(textOf(await extract(Buffer.from('\ufeff  Hello,\t\tworld!\r\n\r\n  Next\u0007 line\u0001  ', 'utf8'), 'a.txt', 'text/plain'))).toBe(
      'Hello, world!\nNext line',
    );
    expect(textOf(await extract(Buffer.from('Café crème brûlée', 'latin1'), 'menu.csv'))).toBe('Café crème brûlée');
    expect(textOf(await extract(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Grüße vom Quastenflosser', 'utf16le')]), 'greeting.txt'))).toBe(
      'Grüße vom Quastenflosser',
    );
    expect(textOf(await extract('id,animal\n1,capybara\n2,"blue whale"', 'animals.csv', 'text/csv'))).toBe('id,animal\n1,capybara\n2,"blue whale"');
    expect(textOf(await extract('{"species": "tardigrade"}', 'data', 'application/json'))).toBe('{"species": "tardigrade"}');
  });

  it('answers unsupported for binary content under a text file’s name, and for types it does not read', async () => {
    expect(await extract(Buffer.from([0x61, 0x62, 0x00, 0x63, 0x64]), 'dump.txt', 'text/plain')).toEqual({ state: 'unsupported' });
    expect(await extract('not really a video', 'clip.mp4', 'video/mp4')).toEqual({ state: 'unsupported' });
    expect(await extract(await zipOf({ 'a.txt': 'hello' }), 'archive.zip', 'application/zip')).toEqual({ state: 'unsupported' });
  });

  it('cuts text at MAX_EXTRACTED_CHARS and says so; the head of a larger file is marked truncated', async () => {
    const long = await extract('lorem '.repeat(300_000), 'long.txt');
    expect(long).toMatchObject({ state: 'ready', truncated: true });
    expect(textOf(long)).toHaveLength(MAX_EXTRACTED_CHARS);
    expect(await extract('head of a log', 'server.log', 'text/plain', 2 ** 31)).toEqual({ state: 'ready', text: 'head of a log', truncated: true });
    expect(await extract('short', 'short.txt')).toEqual({ state: 'ready', text: 'short', truncated: false });
  });

  it('reads HTML’s text without scripts or styles, and XML’s text nodes', async () => {
    const html = `<!doctype html><html><head><meta charset="windows-1252"><title>Wombat page</title><style>body { color: red }</style>
      <script>var hidden = "secretscript";</script></head><body><h1>Caf\xe9 &amp; friends</h1><p>One<br>two</p><noscript>enable js</noscript></body></html>`;
    expect(textOf(await extract(Buffer.from(html, 'latin1'), 'page.html', 'text/html'))).toBe('Wombat page\nCafé & friends\nOne\ntwo');
    expect(textOf(await extract('<?xml version="1.0"?><svg><text>Ibis</text><text><![CDATA[heron]]></text></svg>', 'birds.svg', 'image/svg+xml'))).toBe(
      'Ibis heron',
    );
  });

  it('reads a Word document, and by its contents when its name says otherwise', async () => {
    const docx = await zipOf({ ...DOCX_PARTS, 'word/document.xml': docxBody(['The axolotl paragraph', 'Second one']) });
    expect(textOf(await extract(docx, 'report.docx'))).toBe('The axolotl paragraph\nSecond one');
    expect(textOf(await extract(docx, 'notes.txt', 'text/plain'))).toBe('The axolotl paragraph\nSecond one');
  });

  it('reads an Excel workbook: sheet names, shared and inline strings, numbers and formulas’ results', async () => {
    const xlsx = await zipOf({
      'xl/workbook.xml':
        '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Budget" sheetId="1" r:id="rId1"/></sheets></workbook>',
      'xl/_rels/workbook.xml.rels':
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
      'xl/sharedStrings.xml':
        '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>Pangolin</t></si><si><r><t>rich </t></r><r><t>text</t></r></si></sst>',
      'xl/worksheets/sheet1.xml':
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1"><v>31415</v></c><c r="C1" t="inlineStr"><is><t>inline words</t></is></c><c r="D1" t="b"><v>1</v></c></row><row r="2"><c r="A2" t="s"><v>1</v></c><c r="B2"><f>B1*2</f><v>62830</v></c></row></sheetData></worksheet>',
    });
    expect(textOf(await extract(xlsx, 'budget.xlsx'))).toBe('Budget\nPangolin 31415 inline words\nrich text 62830');
  });

  it('reads a PowerPoint presentation’s slides in the presentation’s order', async () => {
    const slide = (text: string) =>
      `<p:sld xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"><p:cSld><p:spTree><p:sp><p:txBody><a:p><a:r><a:t>${text}</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>`;
    const pptx = await zipOf({
      'ppt/presentation.xml':
        '<p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><p:sldIdLst><p:sldId id="256" r:id="rId3"/><p:sldId id="257" r:id="rId2"/></p:sldIdLst></p:presentation>',
      'ppt/_rels/presentation.xml.rels':
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide1.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide2.xml"/></Relationships>',
      'ppt/slides/slide1.xml': slide('Then the second'),
      'ppt/slides/slide2.xml': slide('First the narwhal'),
    });
    expect(textOf(await extract(pptx, 'deck.pptx'))).toBe('First the narwhal\nThen the second');
  });

  it('reads OpenDocument text and spreadsheets, and refuses an encrypted one', async () => {
    const content = (body: string) =>
      `<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"><office:body>${body}</office:body></office:document-content>`;
    const odt = await zipOf({
      mimetype: 'application/vnd.oasis.opendocument.text',
      'content.xml': content('<office:text><text:h>Heading</text:h><text:p>The<text:s/>okapi paragraph</text:p></office:text>'),
    });
    expect(textOf(await extract(odt, 'essay.odt'))).toBe('Heading\nThe okapi paragraph');
    const row = (cells: string[]) =>
      `<table:table-row>${cells.map((c) => `<table:table-cell><text:p>${c}</text:p></table:table-cell>`).join('')}</table:table-row>`;
    const ods = await zipOf({
      mimetype: 'application/vnd.oasis.opendocument.spreadsheet',
      'content.xml': content(`<office:spreadsheet><table:table>${row(['Quarter', 'Kinkajou'])}${row(['Q1', '1200'])}</table:table></office:spreadsheet>`),
    });
    expect(textOf(await extract(ods, 'sheet.ods'))).toBe('Quarter Kinkajou\nQ1 1200');
    const encrypted = await zipOf({
      mimetype: 'application/vnd.oasis.opendocument.text',
      'content.xml': 'ciphertext',
      'META-INF/manifest.xml':
        '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="content.xml"><manifest:encryption-data/></manifest:file-entry></manifest:manifest>',
    });
    expect(await extract(encrypted, 'secret.odt')).toEqual({ state: 'failed', reason: 'It is protected by a password.' });
  });

  it('refuses a Word zip bomb by its declared sizes at once, and one whose directory lies as it unpacks', async () => {
    const parts = Object.entries(DOCX_PARTS).map(([name, data]) => ({ name, data: Buffer.from(data) }));
    const declared = rawZip([...parts, { name: 'word/document.xml', data: Buffer.from(docxBody(['bomb'])), declaredSize: 2 ** 31 }]);
    const started = Date.now();
    expect(await extract(declared, 'bomb.docx')).toEqual({ state: 'failed', reason: 'It unpacks to more than 200 MiB of content, more than is read.' });
    expect(Date.now() - started).toBeLessThan(5_000);
    const lying = rawZip([...parts, { name: 'word/document.xml', data: Buffer.alloc(201 * 2 ** 20, 0x20), declaredSize: 1000 }]);
    expect(lying.length).toBeLessThan(2 * 2 ** 20);
    expect(await extract(lying, 'bomb.docx')).toEqual({ state: 'failed', reason: 'It unpacks to more than 200 MiB of content, more than is read.' });
  });

  it('reads a PDF’s text layer; refuses an encrypted PDF and a damaged one', async () => {
    const text = await pdf(['A PDF about the quetzal', { text: 'Page two', pageBreak: 'before' }]);
    expect(textOf(await extract(text, 'bird.pdf', 'application/pdf'))).toBe('A PDF about the quetzal\nPage two');
    const encrypted = await pdf(['Hidden'], { userPassword: 'secret', ownerPassword: 'owner' });
    expect(await extract(encrypted, 'secret.pdf', 'application/pdf')).toEqual({ state: 'failed', reason: 'It is protected by a password.' });
    expect(await extract('%PDF-1.7\n1 0 obj garbage', 'broken.pdf', 'application/pdf')).toEqual({
      state: 'failed',
      reason: 'It is damaged: it cannot be read as a PDF.',
    });
    expect(await extract('plain words', 'fake.pdf', 'application/pdf')).toEqual({ state: 'failed', reason: 'It is damaged: it cannot be read as a PDF.' });
    expect(textOf(await extract(Buffer.concat([Buffer.from('junk before the header\n'), text]), 'prefixed.pdf', 'application/pdf'))).toBe(
      'A PDF about the quetzal\nPage two',
    );
  });

  it('refuses an image past 40 megapixels by its header, before decoding it', async () => {
    const chunk = (type: string, data: Buffer) => {
      const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
      const head = Buffer.alloc(4);
      head.writeUInt32BE(data.length);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(crc32(body));
      return Buffer.concat([head, body, crc]);
    };
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(20_000, 0);
    ihdr.writeUInt32BE(20_000, 4);
    ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit grey
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      chunk('IDAT', deflateSync(Buffer.alloc(20_001 * 4))),
      chunk('IEND', Buffer.alloc(0)),
    ]);
    const started = Date.now();
    expect(await extract(png, 'huge.png', 'image/png')).toEqual({
      state: 'failed',
      reason: 'It is too large to read its text: 20,000 × 20,000 pixels, more than 40 megapixels.',
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await extract('just words', 'photo.png', 'image/png')).toEqual({ state: 'failed', reason: 'It is damaged: its contents are not an image.' });
  });

  it('reads printed text in an image, and in a scanned PDF, by OCR with the installed English data', async () => {
    const image = textOf(await extract(fixture('printed-text.png'), 'receipt.png', 'image/png'));
    expect(image).toMatch(/quokka ate marmalade/);
    expect(image).toMatch(/7319 zymurgy/);
    const scan = textOf(await extract(fixture('scanned.pdf'), 'scan.pdf', 'application/pdf'));
    expect(scan).toMatch(/quokka ate marmalade/);
    expect(scan).toMatch(/zymurgy/);
  });

  it('fails a file past the time limit, stops its OCR, and reads the next file', async () => {
    const quick = pool(2_000);
    // A dense page of print: its OCR takes far longer than the limit.
    const tile = fixture('printed-text.png');
    const page = await sharp({ create: { width: 640 * 5, height: 160 * 20, channels: 3, background: '#ffffff' } })
      .composite(Array.from({ length: 100 }, (_, i) => ({ input: Buffer.from(tile), left: (i % 5) * 640, top: Math.floor(i / 5) * 160 })))
      .png()
      .toBuffer();
    expect(await extractText(quick, { bytes: page, name: 'page.png', mimeType: 'image/png' })).toEqual({
      state: 'failed',
      reason: 'It took longer than 2 seconds to read.',
    });
    // Tesseract's own thread ended with the task's: the process is idle after.
    const before = process.cpuUsage();
    await sleep(1_000);
    const used = process.cpuUsage(before);
    expect((used.user + used.system) / 1000).toBeLessThan(400);
    expect(await extractText(quick, { bytes: Buffer.from('after the timeout'), name: 'next.txt', mimeType: 'text/plain' })).toMatchObject({
      state: 'ready',
      text: 'after the timeout',
    });
  });
});
