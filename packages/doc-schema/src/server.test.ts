import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import {
  documentNode,
  documentText,
  documentUpdate,
  fromHTML,
  fromMarkdown,
  nodeFromJSON,
  replaceDocument,
  stateDoc,
  toHTML,
  toMarkdown,
  withItemsRenamed,
} from './server.ts';

const MARKDOWN = `# Plans

Some **bold**, *italic*, \`code\` and a [link](https://example.com/a?b=c).

## Lists

- one
- two
  - nested

1. first
2. second

- [ ] to do
- [x] done

> a quote

\`\`\`ts
const x = 1;
\`\`\`

| name | size |
| --- | --- |
| a | 1 |

![chart](https://example.com/chart.png)

---

Text with ![icon](/api/v1/items/0190a0a0-0000-7000-8000-000000000000/content) inside.
`;

const types = (md: string) => JSON.stringify(fromMarkdown(md).toJSON());

describe('Markdown', () => {
  it('keeps headings, lists, task lists, quotes, code, tables, links, images and rules through a round trip', () => {
    const once = toMarkdown(fromMarkdown(MARKDOWN));
    for (const piece of [
      '# Plans',
      '## Lists',
      '**bold**',
      '*italic*',
      '`code`',
      '[link](https://example.com/a?b=c)',
      '- one',
      '  - nested',
      '1. first',
      '- [ ] to do',
      '- [x] done',
      '> a quote',
      '```ts\nconst x = 1;\n```',
      '| name | size |',
      '![chart](https://example.com/chart.png)',
      '---',
      'Text with ![icon](/api/v1/items/',
    ])
      expect(once).toContain(piece);
    // A second trip changes nothing: the form is stable.
    expect(toMarkdown(fromMarkdown(once))).toBe(once);
  });

  it('drops javascript: links and images but keeps their text', async () => {
    const json = types('[click](javascript:alert(1)) and ![x](javascript:alert(1)) and <script>alert(1)</script>');
    expect(json).not.toContain('javascript:');
    expect(json).toContain('click');
    expect(await toHTML(fromMarkdown('<script>alert(1)</script>'))).toContain('&lt;script&gt;');
  });

  it('reads an empty file as an empty document', () => {
    expect(toMarkdown(fromMarkdown(''))).toBe('');
  });
});

describe('HTML', () => {
  it('drops scripts, event handlers, javascript: links and frames', async () => {
    const html = await toHTML(
      await fromHTML(
        '<p onclick="alert(1)">hi<script>alert(1)</script> <a href="javascript:alert(1)">x</a><img src="x:y" onerror="alert(1)"><img src="https://e.com/i.png" onerror="alert(2)"></p><iframe src="https://evil"></iframe><style>p{}</style>',
      ),
    );
    expect(html).not.toMatch(/script|onclick|onerror|javascript|iframe|style>/i);
    expect(html).toContain('<img src="https://e.com/i.png">');
    expect(html).toContain('hi');
  });

  it('keeps the structure of a document', async () => {
    const html = await toHTML(fromMarkdown(MARKDOWN));
    for (const tag of [
      '<h1>Plans</h1>',
      '<strong>bold</strong>',
      '<ul>',
      '<ol>',
      'data-type="taskList"',
      '<blockquote>',
      '<pre><code class="language-ts">',
      '<table',
      '<hr>',
      '<a ',
    ])
      expect(html).toContain(tag);
  });
});

describe('Yjs state', () => {
  it('holds the document and gives its text one block to a line', () => {
    const doc = stateDoc(documentUpdate(fromMarkdown('# Title\n\nfirst line\n\n- item\n')));
    expect(documentText(doc)).toBe('Title\nfirst line\nitem');
  });

  it('refuses content the schema does not know', () => {
    expect(() => nodeFromJSON({ type: 'doc', content: [{ type: 'marquee' }] })).toThrow();
  });
});

describe('replacing a document', () => {
  it('changes only what differs, so edits elsewhere survive a merge', () => {
    const doc = stateDoc(documentUpdate(fromMarkdown('# Title\n\nfirst\n\nsecond\n')));
    const other = stateDoc(Y.encodeStateAsUpdate(doc));
    replaceDocument(doc, fromMarkdown('# Title\n\nfirst, changed\n\nsecond\n'));
    expect(documentText(doc)).toBe('Title\nfirst, changed\nsecond');
    // Someone else typed into the last paragraph meanwhile: both changes stand after merging.
    const last = other.getXmlFragment('default').get(2) as Y.XmlElement;
    (last.get(0) as Y.XmlText).insert(6, ' and more');
    Y.applyUpdate(doc, Y.encodeStateAsUpdate(other));
    expect(documentText(doc)).toBe('Title\nfirst, changed\nsecond and more');
  });
});

describe('a copy’s attachments', () => {
  it('points pictures and attached files at the copy’s own items, and leaves other addresses alone', () => {
    const [a, b, c] = ['0190a0a0-0000-7000-8000-00000000000a', '0190a0a0-0000-7000-8000-00000000000b', '0190a0a0-0000-7000-8000-00000000000c'];
    const state = documentUpdate(
      fromMarkdown(`![pic](/api/v1/items/${a}/content) [notes.csv](/api/v1/items/${b}/content?download=1) [web](https://example.com/x)`),
    );
    const doc = stateDoc(withItemsRenamed(state, new Map([[a, c]]))!);
    const md = toMarkdown(documentNode(doc));
    expect(md).toContain(`![pic](/api/v1/items/${c}/content)`);
    expect(md).toContain(`[notes.csv](/api/v1/items/${b}/content?download=1)`);
    expect(md).toContain('[web](https://example.com/x)');
    expect(withItemsRenamed(state, new Map([['0190a0a0-0000-7000-8000-0000000000ff', c]]))).toBeUndefined();
  });
});

describe('reading a long Markdown file', () => {
  /** Characters the reading splits into lines: the work that grew with the square of the file's length. */
  function linesSplit(source: string): number {
    const split = String.prototype.split;
    let characters = 0;
    String.prototype.split = function (this: string, ...args: Parameters<typeof split>) {
      characters += this.length;
      return split.apply(this, args);
    } as typeof split;
    try {
      fromMarkdown(source);
    } finally {
      String.prototype.split = split;
    }
    return characters;
  }
  const paragraphs = (n: number) => Array.from({ length: n }, (_, i) => `Paragraph ${i}, with *some* text.`).join('\n\n');
  const lists = (n: number) =>
    Array.from({ length: n }, (_, i) => `${i % 2 ? '1. first\n2. second' : '- [ ] to do\n- [x] done'}\n\n| a | b |\n| - | - |\n| ${i} | x |`).join('\n\n');

  it('does work in proportion to its length, with lists and tables among the paragraphs', () => {
    for (const make of [paragraphs, lists]) {
      // Twice the file, twice the work (not four times).
      expect(linesSplit(make(800)) / linesSplit(make(400))).toBeLessThan(2.5);
    }
  });

  // Seconds of work on a busy machine: more time than the unit tests' default, for reading alone.
  it('reads 20,000 paragraphs into as many paragraphs', { timeout: 30_000 }, () => {
    const node = fromMarkdown(paragraphs(20_000));
    expect(node.childCount).toBe(20_000);
    expect(node.child(19_999).textContent).toBe('Paragraph 19999, with some text.');
  });

  it('keeps lists and tables whole when reading only what can start them', () => {
    const node = fromMarkdown(lists(4));
    expect(node.toJSON().content.map((n: { type: string }) => n.type)).toEqual([
      'taskList',
      'table',
      'orderedList',
      'table',
      'taskList',
      'table',
      'orderedList',
      'table',
    ]);
  });
});

describe('HTML with pictures at other addresses', () => {
  it('writes the pictures it is given by item id at their new address, and every other address as it is', async () => {
    const [a, b] = ['0190a0a0-0000-7000-8000-00000000000a', '0190a0a0-0000-7000-8000-00000000000b'];
    const node = fromMarkdown(
      `![mine](/api/v1/items/${a}/content) ![theirs](/api/v1/items/${b}/content) ![web](https://example.com/w.png) [file](/api/v1/items/${a}/content?download=1)`,
    );
    const html = await toHTML(node, new Map([[a, 'https://storage.example/blob?s=1&e=2']]));
    expect(html).toContain('src="https://storage.example/blob?s=1&amp;e=2"');
    expect(html).toContain(`src="/api/v1/items/${b}/content"`);
    expect(html).toContain('src="https://example.com/w.png"');
    expect(html).toContain(`href="/api/v1/items/${a}/content?download=1"`);
    expect(await toHTML(node)).toContain(`src="/api/v1/items/${a}/content"`);
  });
});
