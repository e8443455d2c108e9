import { documentsApi, filesApi, itemsApi, urlOf, type NameConflictDetails } from '@cabinet/contracts';
import net from 'node:net';
import { documentText } from '@cabinet/doc-schema/server';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { addParagraph, collabTestApp, until } from '../../testing/collab-client.ts';
import { documentFiles } from '../../testing/document-files.ts';

const app = collabTestApp();

const { importFile, exportAs, children, docx } = documentFiles(() => app.t.url);

const MARKDOWN = `# Release plan

Ship **on time**, see [the board](https://example.com/board).

- design
- build
  - tests

1. one
2. two

- [ ] write notes
- [x] tag release

> measure twice

\`\`\`js
console.log('ready');
\`\`\`

| step | owner |
| --- | --- |
| build | Ada |

![diagram](https://example.com/diagram.png)
`;

describe('importing documents', () => {
  it('makes a document from Markdown that exports back with its headings, lists, tables, code, links and images', async () => {
    const ada = await app.g.person();
    const res = await importFile(ada, ada.workspace.homeId, 'release plan.md', MARKDOWN);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ kind: 'document', name: 'release plan', parentId: ada.workspace.homeId, role: 'manager' });
    expect(res.body.size).toBeGreaterThan(0);
    const md = await exportAs(ada, res.body.id, 'markdown');
    expect(md.status).toBe(200);
    expect(md.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(md.headers.get('content-disposition')).toContain(`filename*=UTF-8''release%20plan.md`);
    const text = md.bytes.toString('utf8');
    for (const piece of [
      '# Release plan',
      '**on time**',
      '[the board](https://example.com/board)',
      '- design',
      '  - tests',
      '1. one',
      '- [ ] write notes',
      '- [x] tag release',
      '> measure twice',
      "```js\nconsole.log('ready');\n```",
      '| step',
      '| build',
      '![diagram](https://example.com/diagram.png)',
    ])
      expect(text).toContain(piece);
    // Importing the export gives the same document again.
    const again = await importFile(ada, ada.workspace.homeId, 'copy.md', text);
    expect((await exportAs(ada, again.body.id, 'markdown')).bytes.toString('utf8')).toBe(text);

    // Editors see the imported content on the collaboration socket.
    const editor = app.clients.connect(res.body.id, ada.token);
    await until(() => editor.outcome.synced, 'the editor to sync');
    expect(documentText(editor.document)).toContain('Ship on time, see the board.');
  });

  it('takes HTML without its scripts, handlers or javascript: links', async () => {
    const ada = await app.g.person();
    const res = await importFile(
      ada,
      ada.workspace.homeId,
      'page.html',
      '<h2 onclick="steal()">Notes</h2><script>alert(1)</script><p>Read <a href="javascript:alert(1)">this</a> and <a href="https://example.com">that</a><img src="x" onerror="alert(2)"></p><iframe src="https://evil.example"></iframe>',
    );
    expect(res.status).toBe(201);
    const html = (await exportAs(ada, res.body.id, 'html')).bytes.toString('utf8');
    expect(html).toContain('<h2>Notes</h2>');
    expect(html).toContain('<a target="_blank" rel="noopener noreferrer nofollow" href="https://example.com">that</a>');
    expect(html).not.toMatch(/<script|onclick|onerror|javascript:|iframe/i);
    expect(html).toContain(`Content-Security-Policy" content="default-src 'none'`);
  });

  it('makes a document from a Word file', async () => {
    const ada = await app.g.person();
    const bytes = await docx('<w:p><w:r><w:rPr><w:b/></w:rPr><w:t>Quarterly report</w:t></w:r></w:p><w:p><w:r><w:t>All is well.</w:t></w:r></w:p>');
    const res = await importFile(ada, ada.workspace.homeId, 'Report.DOCX', bytes);
    expect(res.status).toBe(201);
    expect(res.body.name).toBe('Report');
    expect((await exportAs(ada, res.body.id, 'markdown')).bytes.toString('utf8')).toBe('**Quarterly report**\n\nAll is well.');
  });

  it('refuses a file that is not what its name says, or of a kind it cannot read, and creates nothing', async () => {
    const ada = await app.g.person();
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    for (const [name, bytes] of [
      ['picture.docx', png],
      ['picture.md', png],
      ['notes.html', Uint8Array.from([0xff, 0xfe, 0x41, 0x00])],
      ['broken.docx', await docx('').then((b) => b.subarray(0, 40))],
      ['slides.pptx', new TextEncoder().encode('hello')],
      ['README', new TextEncoder().encode('hello')],
    ] as const) {
      expect(await importFile(ada, ada.workspace.homeId, name, bytes), name).toFail('unsupported_media_type');
    }
    expect(await children(ada, ada.workspace.homeId)).toEqual([]);
  });

  it('answers a name already taken with name_conflict, or takes a free name when asked to keep both', async () => {
    const ada = await app.g.person();
    expect((await importFile(ada, ada.workspace.homeId, 'notes.md', 'one')).status).toBe(201);
    const clash = await importFile(ada, ada.workspace.homeId, 'Notes.md', 'two');
    expect(clash).toFail('name_conflict');
    expect(clash.error?.details).toMatchObject({ suggestedName: expect.any(String) });
    const both = await importFile(ada, ada.workspace.homeId, 'notes.md', 'two', 'keep_both');
    expect(both.status).toBe(201);
    expect(both.body.name.toLowerCase()).toBe((clash.error?.details as NameConflictDetails | undefined)?.suggestedName.toLowerCase());
  });

  it('makes nothing of a file whose sender gives up half way', async () => {
    const ada = await app.g.person();
    const { port } = new URL(app.t.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.write(
      [
        `POST ${urlOf(documentsApi.import, { ws: ada.workspace.id }, { parentId: ada.workspace.homeId, fileName: 'half.md' })} HTTP/1.1`,
        'Host: 127.0.0.1',
        `Authorization: Bearer ${ada.token}`,
        'Content-Type: text/markdown',
        'Content-Length: 100000',
        '',
        '# Only the beginning',
      ].join('\r\n'),
    );
    await new Promise((r) => setTimeout(r, 300));
    socket.destroy();
    await new Promise((r) => setTimeout(r, 300));
    expect(await children(ada, ada.workspace.homeId)).toEqual([]);
    // The server carries on.
    expect((await importFile(ada, ada.workspace.homeId, 'whole.md', '# Whole')).status).toBe(201);
  });

  it('refuses a file over the import limit as file_too_large', async () => {
    const ada = await app.g.person();
    expect(await importFile(ada, ada.workspace.homeId, 'huge.md', new Uint8Array(20 * 1024 * 1024 + 1).fill(0x61))).toFail('file_too_large');
    expect(await children(ada, ada.workspace.homeId)).toEqual([]);
  });

  it('lets a viewer export but not import, and hides the folder from outsiders', async () => {
    const ada = await app.g.person();
    const bea = await app.g.person();
    const cy = await app.g.person();
    const folder = await app.g.folder(ada, ada.workspace.rootId, 'Shared');
    await app.g.membership(bea, ada.workspace.id, 'guest');
    await app.g.grant(folder.id, { user: bea }, 'viewer');
    const doc = await importFile(ada, folder.id, 'plan.md', '# Plan');
    expect((await exportAs(bea, doc.body.id, 'markdown')).bytes.toString('utf8')).toBe('# Plan');
    expect(await importFile(bea, folder.id, 'mine.md', 'x')).toFail('forbidden');
    expect(await importFile(cy, folder.id, 'mine.md', 'x')).toFail('not_found');
    expect(await exportAs(cy, doc.body.id, 'markdown')).toFail('not_found');
  });
});

describe('exporting documents', () => {
  it('exports what editors have typed, before it is saved, as Markdown, HTML and PDF', async () => {
    const ada = await app.g.person();
    const created = await app.g.document(ada, ada.workspace.homeId, 'Minutes');
    const editor = app.clients.connect(created.id, ada.token);
    await until(() => editor.outcome.synced, 'the editor to sync');
    addParagraph(editor.document, 'Decided: ship on Friday');
    await expect.poll(async () => (await exportAs(ada, created.id, 'markdown')).bytes.toString('utf8')).toBe('Decided: ship on Friday');
    const html = await exportAs(ada, created.id, 'html');
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html.bytes.toString('utf8')).toContain('<title>Minutes</title>');
    expect(html.bytes.toString('utf8')).toContain('<p>Decided: ship on Friday</p>');
    const pdf = await exportAs(ada, created.id, 'pdf');
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toContain('Minutes.pdf');
    expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('prints every kind of block to PDF', async () => {
    const ada = await app.g.person();
    const doc = await importFile(
      ada,
      ada.workspace.homeId,
      'all.md',
      MARKDOWN + '\n---\n\nText with a @mention-like word and ![](https://example.com/x.png) inline.\n',
    );
    const pdf = await exportAs(ada, doc.body.id, 'pdf');
    expect(pdf.status).toBe(200);
    expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('exports only documents', async () => {
    const ada = await app.g.person();
    const folder = await app.g.folder(ada, ada.workspace.homeId, 'Box');
    expect(await exportAs(ada, folder.id, 'pdf')).toFail('unsupported_media_type');
    // No declaration allows a format Cabinet does not write: sent as it is.
    expect(await ada.raw('GET', `/items/${folder.id}/export?format=docx`)).toFail('invalid_input');
  });
});

describe('attachments', () => {
  it('uploads an image into a document, readable by whoever may read the document and gone with it to the trash', async () => {
    const ada = await app.g.person();
    const bea = await app.g.person();
    const cy = await app.g.person();
    const folder = await app.g.folder(ada, ada.workspace.rootId, 'Docs');
    const doc = await app.g.document(ada, folder.id, 'Illustrated');
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
    const done = await app.g.upload(ada, doc.id, 'chart.png', png);
    expect(done.status).toBe(200);
    const image = done.body.item;
    expect(image).toMatchObject({ kind: 'file', parentId: doc.id, name: 'chart.png' });
    // The same name again is kept beside it, as the browser asks.
    expect((await app.g.upload(ada, doc.id, 'chart.png', png, { onConflict: 'keep_both' })).body.item.name).not.toBe('chart.png');

    await app.g.membership(bea, ada.workspace.id, 'guest');
    await app.g.grant(doc.id, { user: bea }, 'viewer');
    // The bytes as sent (`call` would read them as text).
    const read = await fetch(`${app.t.url}${urlOf(filesApi.content, { id: image.id })}`, { headers: { authorization: `Bearer ${bea.token}` } });
    expect(read.status).toBe(200);
    expect(Buffer.from(await read.arrayBuffer())).toEqual(Buffer.from(png));
    expect(await cy.call(filesApi.content, { params: { id: image.id } })).toFail('not_found');
    // A viewer cannot add attachments.
    expect(await app.g.upload(bea, doc.id, 'mine.png', png)).toFail('forbidden');
    // Files take no attachments.
    expect(await app.g.upload(ada, image.id, 'nested.png', png)).toFail('invalid_input');

    // A PDF carries the document's own pictures (a real PNG), and survives one that is not.
    const real = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    const dot = (await app.g.upload(ada, doc.id, 'dot.png', real)).body.item;
    const pictured = async (ids: string[]) => {
      const editor = app.clients.connect(doc.id, ada.token);
      await until(() => editor.outcome.synced, 'the editor to sync');
      const fragment = editor.document.getXmlFragment('default');
      fragment.delete(0, fragment.length);
      const paragraph = new Y.XmlElement('paragraph');
      paragraph.insert(
        0,
        ids.map((id) => {
          const element = new Y.XmlElement('image');
          element.setAttribute('src', `/api/v1/items/${id}/content`);
          return element;
        }),
      );
      fragment.push([paragraph]);
      await expect.poll(async () => (await exportAs(ada, doc.id, 'markdown')).bytes.toString('utf8')).toContain(ids.at(-1)!);
      editor.provider.destroy();
      return (await exportAs(ada, doc.id, 'pdf')).bytes.toString('latin1');
    };
    expect(await pictured([dot.id])).toContain('/Subtype /Image');
    const broken = await pictured([dot.id, image.id]);
    expect(broken.startsWith('%PDF-')).toBe(true);

    await ada.call(itemsApi.trash, { params: { id: doc.id } });
    expect(await ada.call(itemsApi.get, { params: { id: image.id } })).toFail('not_found');
    await ada.call(itemsApi.restore, { params: { id: doc.id } });
    expect((await ada.call(itemsApi.get, { params: { id: image.id } })).status).toBe(200);
  });
});

describe('copying a document', () => {
  it('gives the copy its own attachments, and its text points at them', async () => {
    const ada = await app.g.person();
    const doc = await app.g.document(ada, ada.workspace.homeId, 'Original');
    const picture = (await app.g.upload(ada, doc.id, 'pic.png', Uint8Array.from([1, 2, 3]))).body.item;
    const editor = app.clients.connect(doc.id, ada.token);
    await until(() => editor.outcome.synced, 'the editor to sync');
    const paragraph = new Y.XmlElement('paragraph');
    const image = new Y.XmlElement('image');
    image.setAttribute('src', `/api/v1/items/${picture.id}/content`);
    paragraph.insert(0, [image]);
    editor.document.getXmlFragment('default').push([paragraph]);
    editor.provider.destroy();
    await expect.poll(async () => (await exportAs(ada, doc.id, 'markdown')).bytes.toString('utf8')).toContain(picture.id);

    const copy = (await ada.call(itemsApi.copy, { params: { id: doc.id }, body: { parentId: ada.workspace.homeId } })).body;
    const attachments = (await ada.call(itemsApi.children, { params: { ws: ada.workspace.id, id: copy.id } })).body.items;
    expect(attachments.map((i) => i.name)).toEqual(['pic.png']);
    const attachment = attachments[0]!;
    const md = (await exportAs(ada, copy.id, 'markdown')).bytes.toString('utf8');
    expect(md).toBe(`![](/api/v1/items/${attachment.id}/content)`);
    expect(attachment.id).not.toBe(picture.id);
  });
});
