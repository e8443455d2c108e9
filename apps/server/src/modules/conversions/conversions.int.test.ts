import { conversionsApi, linksApi, PREVIEW_LIMITS, PREVIEW_PICTURE_SRC, type TCreateLinkRequest } from '@cabinet/contracts';
import { describe, expect, it } from 'vitest';
import type { Person } from '../../testing/given.ts';
import { linkVisitor } from '../../testing/link-visitor.ts';
import { bombZip, budgetOds, budgetXlsx, docxFile, picturesDocx, reportDocx, reportOdt } from '../../testing/preview-files.ts';
import { twoColours } from '../../testing/test-images.ts';
import { useTestApp } from '../../testing/test-app.ts';

const test = useTestApp({ LOG_LEVEL: 'error', TRUST_PROXY: 'true' });

const MIME: Record<string, string> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  odt: 'application/vnd.oasis.opendocument.text',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  md: 'text/markdown',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  txt: 'text/plain',
};

/** Uploads a file into the person's own folder; answers its id. */
async function upload(person: Person, name: string, bytes: Uint8Array | string, parentId = person.workspace.homeId): Promise<string> {
  const data = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  const res = await test.given.upload(person, parentId, name, data, { mimeType: MIME[name.split('.').pop()!] ?? 'application/octet-stream' });
  if (res.status !== 200 && res.status !== 201) throw new Error(`upload of ${name} failed: ${JSON.stringify(res.error)}`);
  return (res.body as { item: { id: string } }).item.id;
}

const html = (person: Person, id: string, version?: string) => person.call(conversionsApi.html, { params: { id }, query: version ? { version } : {} });
const sheets = (person: Person, id: string, query: { sheet?: number; offset?: number; limit?: number; version?: string } = {}) =>
  person.call(conversionsApi.sheets, { params: { id }, query });

/** What no preview may ever hold. */
function expectInert(out: string) {
  const tags = [...out.matchAll(/<\/?([a-z][a-z0-9]*)([^>]*)>/gi)];
  expect(tags.length).toBeGreaterThan(0);
  for (const [tag, name, attrs] of tags) {
    expect(['script', 'style', 'img', 'iframe', 'svg', 'object', 'embed', 'div', 'link', 'meta', 'form'], tag).not.toContain(name!.toLowerCase());
    expect(attrs, tag).not.toMatch(/\son\w+=|style=|javascript:|data:|src=/i);
  }
}

describe('documents shown as HTML', () => {
  it('shows a Word file, an OpenDocument text and Markdown through the document schema', async () => {
    const ada = await test.given.person('Ada');
    const docx = await html(ada, await upload(ada, 'Report.docx', await reportDocx()));
    expect(docx.status).toBe(200);
    expect(docx.body.truncated).toBe(false);
    expect(docx.body.html).toContain('<h1>Quarterly report</h1>');
    expect(docx.body.html).toContain('<strong>All is well.</strong>');
    expect(docx.body.html).toMatch(/<table>.*Region.*Sales.*North.*1200.*<\/table>/s);

    const odt = (await html(ada, await upload(ada, 'Notes.odt', await reportOdt()))).body;
    expect(odt.html).toContain('<h1>Field notes</h1>');
    expect(odt.html).toContain('<strong>bold</strong>');
    expect(odt.html).toContain('<em>slanted</em>');
    expect(odt.html).toMatch(/<ol><li><p>First step<\/p><\/li><li><p>Second step<\/p><\/li><\/ol>/);
    expect(odt.html).toMatch(/<table>.*Site.*Count.*Ridge.*42.*<\/table>/s);
    expect(odt.html).toContain('<a href="https://example.com/notes" target="_blank" rel="noopener noreferrer">the notes</a>');
    // The javascript: link keeps its text, not its address; the picture leaves its place.
    expect(odt.html).toContain('and this.');
    expect(odt.html).toContain('<em>[Picture]</em>');
    expectInert(odt.html);

    const md = (await html(ada, await upload(ada, 'readme.md', '# Hello\n\nSome *text* and a [site](https://example.org).\n\n- one\n- two\n'))).body;
    expect(md.html).toContain('<h1>Hello</h1>');
    expect(md.html).toContain('<em>text</em>');
    expect(md.html).toContain('<ul><li><p>one</p></li><li><p>two</p></li></ul>');
  });

  it('shows the pictures a Word file holds as WebP written in the HTML, and a linked one as its description', async () => {
    const ada = await test.given.person('Ada');
    const file = await picturesDocx([
      { name: 'chart.png', bytes: await twoColours(300, 200).png().toBuffer(), alt: 'Sales chart' },
      { url: 'https://tracker.example/pixel.png', alt: 'Tracked' },
    ]);
    const id = await upload(ada, 'Pictures.docx', file);
    const first = await html(ada, id);
    expect(first.status).toBe(200);
    expect(first.body.truncated).toBe(false);
    const pictures = [...first.body.html.matchAll(/<img([^>]*)>/g)].map((m) => m[1]!);
    expect(pictures).toHaveLength(1);
    const [, src, alt] = /^ src="([^"]+)" alt="([^"]*)"$/.exec(pictures[0]!)!;
    expect(src).toMatch(PREVIEW_PICTURE_SRC);
    expect(alt).toBe('Sales chart');
    expect(
      Buffer.from(src!.slice(src!.indexOf(',') + 1), 'base64')
        .subarray(8, 12)
        .toString('ascii'),
    ).toBe('WEBP');
    expect(first.body.html).toContain('<em>[Picture: Tracked]</em>');
    expect(first.body.html).not.toContain('tracker.example');
    // Kept for the next call, as it was made.
    expect((await html(ada, id)).body).toEqual(first.body);
  });

  it('leaves out scripts, event handlers, styles, unsafe links and pictures of hostile files', async () => {
    const ada = await test.given.person('Ada');
    const markdown = [
      '# Title',
      '<script>alert(1)</script>',
      '<img src=x onerror=alert(2)>',
      '<div onclick="alert(3)" style="color:red">raw block</div>',
      '[click](javascript:alert(4)) and [home](/api/v1/items/00000000-0000-0000-0000-000000000000/content) and [mail](mailto:a@example.com)',
      '![tracker](https://tracker.example/pixel.png)',
      '<a href="javascript:alert(5)">x</a> <iframe src="https://evil.example"></iframe> <svg onload="alert(6)"></svg>',
      '<style>body{display:none}</style>',
    ].join('\n\n');
    const md = (await html(ada, await upload(ada, 'hostile.md', markdown))).body;
    expectInert(md.html);
    expect(md.html).toContain('<h1>Title</h1>');
    // Raw HTML in Markdown is shown as the text it is.
    expect(md.html).toContain('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>');
    expect(md.html).toContain('<a href="mailto:a@example.com"');
    expect(md.html).not.toContain('/api/v1/items');
    expect(md.html).toContain('[Picture: tracker]');
    expect(md.html).not.toContain('tracker.example');

    const word = await docxFile(
      `<w:p><w:r><w:t>&lt;script&gt;alert(1)&lt;/script&gt;</w:t></w:r></w:p>` +
        `<w:p><w:hyperlink r:id="rBad"><w:r><w:t>bad link</w:t></w:r></w:hyperlink> <w:hyperlink r:id="rGood"><w:r><w:t>good link</w:t></w:r></w:hyperlink></w:p>` +
        `<w:p><w:r><w:t>&lt;img src=x onerror=alert(2)&gt;</w:t></w:r></w:p>`,
      { rBad: 'javascript:alert(1)', rGood: 'https://example.com/ok' },
    );
    const docx = (await html(ada, await upload(ada, 'hostile.docx', word))).body;
    expectInert(docx.html);
    // What looks like markup in the text is shown as text.
    expect(docx.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(docx.html).toContain('&lt;img src=x onerror=alert(2)&gt;');
    expect(docx.html).toContain('bad link');
    expect(docx.html).toContain('<a href="https://example.com/ok" target="_blank" rel="noopener noreferrer">good link</a>');
  });

  it('cuts a long document at a block, and answers 415 for other kinds, files too large, corrupt files and zip bombs', async () => {
    const ada = await test.given.person('Ada');
    const long = Array.from({ length: 31_000 }, (_, i) => `Paragraph ${i}`).join('\n\n');
    const cut = (await html(ada, await upload(ada, 'long.md', long))).body;
    expect(cut.truncated).toBe(true);
    expect(cut.html.endsWith('</p>')).toBe(true);
    expect(Buffer.byteLength(cut.html)).toBeLessThanOrEqual(PREVIEW_LIMITS.htmlBytes);

    const reason = async (id: string) => {
      const res = await html(ada, id);
      expect(res).toFail('unsupported_media_type');
      return res.error?.details?.reason;
    };
    expect(await reason(await upload(ada, 'notes.txt', 'plain'))).toBe('not_supported');
    expect(await reason(await upload(ada, 'sheet.csv', 'a,b'))).toBe('not_supported');
    expect(await reason(await upload(ada, 'big.md', '#'.repeat(PREVIEW_LIMITS.textBytes + 1)))).toBe('too_large');
    expect(await reason(await upload(ada, 'random.docx', crypto.getRandomValues(new Uint8Array(5000))))).toBe('damaged');
    expect(await reason(await upload(ada, 'cut.docx', (await reportDocx()).subarray(0, 300)))).toBe('damaged');
    expect(await reason(await upload(ada, 'not-odt.odt', bombZip({ 'content.xml': '<x/>' }, 'other.xml', 0)))).toBe('damaged');
    expect(await reason(await upload(ada, 'binary.md', new Uint8Array([0x50, 0x4b, 3, 4, 0, 0])))).toBe('damaged');
    // 70 MiB of spaces packed into a few hundred KB: refused by its declared size, nothing unpacked.
    const bomb = bombZip({ '[Content_Types].xml': '<Types/>' }, 'word/document.xml', 70);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(await reason(await upload(ada, 'bomb.docx', bomb))).toBe('too_complex');
    // The server is still there.
    expect((await html(ada, await upload(ada, 'after.md', '# Still here'))).body.html).toContain('Still here');
  });
});

describe('sheets', () => {
  it('pages an Excel workbook: sheets, dates, numbers, formulas by their results, merged cells blank', async () => {
    const ada = await test.given.person('Ada');
    const id = await upload(ada, 'Budget.xlsx', await budgetXlsx());
    const first = await sheets(ada, id);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      sheets: [
        { name: 'Budget', rows: 4, columns: 4 },
        { name: 'People', rows: 2, columns: 2 },
      ],
      sheet: 0,
      offset: 0,
      rows: [['Item', 'Due', 'Amount', 'Double'], ['Paper', '2024-01-05', '0.3', '0.6'], [], ['Merged']],
      truncated: false,
    });
    expect((await sheets(ada, id, { sheet: 1 })).body.rows).toEqual([
      ['Name', 'Team'],
      ['Ada', 'Engines'],
    ]);
    expect((await sheets(ada, id, { offset: 1, limit: 1 })).body.rows).toEqual([['Paper', '2024-01-05', '0.3', '0.6']]);
    // A sheet past the last answers the last.
    expect((await sheets(ada, id, { sheet: 9 })).body.sheet).toBe(1);
  });

  it('reads OpenDocument sheets with repeated rows and cells, and CSV and TSV as one sheet named as the file', async () => {
    const ada = await test.given.person('Ada');
    const ods = (await sheets(ada, await upload(ada, 'Costs.ods', await budgetOds()))).body;
    expect(ods.sheets).toEqual([
      { name: 'Costs', rows: 4, columns: 2 },
      { name: 'Second', rows: 1, columns: 1 },
    ]);
    expect(ods.rows).toEqual([['Item', 'Cost'], ['3.00', 'x'], ['3.00', 'x'], ['Span']]);
    expect(ods.truncated).toBe(false);

    const csv = (await sheets(ada, await upload(ada, 'people.csv', 'name,"note, with comma"\r\nAda,"said ""hi""\nthen left"\r\n'))).body;
    expect(csv.sheets).toEqual([{ name: 'people', rows: 2, columns: 2 }]);
    expect(csv.rows).toEqual([
      ['name', 'note, with comma'],
      ['Ada', 'said "hi"\nthen left'],
    ]);
    const semicolons = (await sheets(ada, await upload(ada, 'euro.csv', 'a;b;c\n1,5;2;3\n'))).body.rows;
    expect(semicolons).toEqual([
      ['a', 'b', 'c'],
      ['1,5', '2', '3'],
    ]);
    expect((await sheets(ada, await upload(ada, 'tabs.tsv', 'x\ty\n1\t2\n'))).body.rows).toEqual([
      ['x', 'y'],
      ['1', '2'],
    ]);
  });

  it('keeps a huge sheet within its limits, and answers 415 for corrupt workbooks and bombs', async () => {
    const ada = await test.given.person('Ada');
    const wide = Array.from({ length: 150 }, (_, i) => `c${i}`).join(',');
    const big = [wide, ...Array.from({ length: 30_000 }, (_, i) => `${i}`)].join('\n');
    const res = (await sheets(ada, await upload(ada, 'big.csv', big), { offset: PREVIEW_LIMITS.sheetRows - 1 })).body;
    expect(res.sheets[0]).toMatchObject({ rows: PREVIEW_LIMITS.sheetRows, columns: PREVIEW_LIMITS.sheetColumns });
    expect(res.truncated).toBe(true);
    expect(res.rows).toHaveLength(1);
    expect(res.rows[0]).toEqual([`${PREVIEW_LIMITS.sheetRows - 2}`]);
    expect((await sheets(ada, await upload(ada, 'wide.csv', wide))).body.rows[0]).toHaveLength(PREVIEW_LIMITS.sheetColumns);

    const reason = async (name: string, bytes: Uint8Array) => {
      const r = await sheets(ada, await upload(ada, name, bytes));
      expect(r).toFail('unsupported_media_type');
      return r.error?.details?.reason;
    };
    expect(await reason('cut.xlsx', (await budgetXlsx()).subarray(0, 400))).toBe('damaged');
    expect(await reason('random.ods', crypto.getRandomValues(new Uint8Array(3000)))).toBe('damaged');
    const bomb = bombZip({ 'xl/workbook.xml': '<workbook/>' }, 'xl/worksheets/sheet1.xml', 210);
    expect(await reason('bomb.xlsx', bomb)).toBe('too_complex');
    expect((await sheets(ada, await upload(ada, 'after.csv', 'ok'))).body.rows).toEqual([['ok']]);
  });
});

describe('who may see a preview', () => {
  it('answers whoever may see the file, and no one else; an older version only of its own file', async () => {
    const owner = await test.given.person('Owner');
    const [member, guest, stranger] = await Promise.all(['Member', 'Guest', 'Stranger'].map((n) => test.given.person(n)));
    await test.given.membership(member!, owner.workspace.id, 'member');
    await test.given.membership(guest!, owner.workspace.id, 'guest');
    const folder = await test.given.folder(owner, owner.workspace.rootId, 'Shared');
    const id = await upload(owner, 'plan.md', '# Version one', folder.id);
    const other = await upload(owner, 'other.md', '# Other', folder.id);

    expect((await html(member!, id)).body.html).toContain('Version one');
    expect(await html(guest!, id)).toFail('not_found');
    await test.given.grant(folder.id, { user: guest! }, 'viewer');
    expect((await html(guest!, id)).body.html).toContain('Version one');
    expect(await html(stranger!, id)).toFail('not_found');
    expect(await sheets(stranger!, id)).toFail('not_found');

    const first = (await owner.call(conversionsApi.html, { params: { id } })).status;
    expect(first).toBe(200);
    await test.given.upload(owner, folder.id, 'plan.md', new TextEncoder().encode('# Version two'), { onConflict: 'replace', mimeType: 'text/markdown' });
    const versions = (await owner.raw('GET', `/items/${id}/versions`)).body.items as { id: string; current: boolean }[];
    const old = versions.find((v) => !v.current)!.id;
    expect((await html(owner, id)).body.html).toContain('Version two');
    expect((await html(guest!, id, old)).body.html).toContain('Version one');
    const otherVersion = ((await owner.raw('GET', `/items/${other}/versions`)).body.items as { id: string }[])[0]!.id;
    expect(await html(owner, id, otherVersion)).toFail('not_found');
  });

  it("answers a public link's visitor for files under its item, with its password, and not once it has expired", async () => {
    const owner = await test.given.person('Owner');
    const folder = await test.given.folder(owner, owner.workspace.homeId, 'Press kit');
    const doc = await upload(owner, 'brief.md', '# Brief', folder.id);
    const book = await upload(owner, 'numbers.csv', 'a,b\n1,2', folder.id);
    const outside = await upload(owner, 'secret.md', '# Secret');
    const body: TCreateLinkRequest = { kind: 'view', password: 'correct horse', downloadAllowed: false };
    const link = (await owner.call(linksApi.create, { params: { id: folder.id }, body })).body;
    const token = link.url!.split('/s/')[1]!;
    const v = linkVisitor(test.app.url);
    const linkHtml = (itemId: string) => v.call(conversionsApi.linkHtml, { params: { token, itemId } });

    expect(await linkHtml(doc)).toFail('link_password_required');
    expect((await v.raw('POST', `/links/${token}/unlock`, { password: 'correct horse' })).status).toBe(204);
    // Showing a file is not downloading it: a link without downloads shows it, and counts none.
    expect((await linkHtml(doc)).body.html).toContain('<h1>Brief</h1>');
    expect((await v.call(conversionsApi.linkSheets, { params: { token, itemId: book }, query: {} })).body.rows).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(await linkHtml(outside)).toFail('not_found');
    const listed = (await owner.call(linksApi.list, { params: { id: folder.id } })).body.items[0]!;
    expect(listed.downloads).toBe(0);

    // Another browser without the password's cookie.
    expect(await linkVisitor(test.app.url, '203.0.113.9').call(conversionsApi.linkHtml, { params: { token, itemId: doc } })).toFail('link_password_required');
    await test.app.ctx.db
      .updateTable('share_links')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', link.id)
      .execute();
    expect(await linkHtml(doc)).toFail('link_expired');
  });
});
