import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from './sanitize.ts';

describe('sanitizeHtml', () => {
  it('keeps only the elements and harmless attributes of a document, whatever it is given', () => {
    const { html } = sanitizeHtml(
      '<p style="color:red" onclick="x()">Hi <a href="javascript:alert(1)" onmouseover="y()">bad</a> <a href=" https://ok.example/ ">ok</a></p>' +
        '<script>alert(1)</script><style>p{}</style><svg><script>1</script></svg><img src=x onerror=alert(1)>' +
        '<table style="min-width: 50px"><colgroup><col style="min-width:25px"></colgroup><tbody><tr><td colspan="2" rowspan="x">c</td></tr></tbody></table>' +
        '<pre><code class="language-js">1 &lt; 2</code></pre><code class="evil x">z</code><ul data-type="taskList"><li data-type="taskItem" data-checked="true"><label><input type="checkbox" checked></label><div><p>done</p></div></li></ul>' +
        '<span class="mention" data-type="mention" data-id="u1">@Ada</span><form action="/x"><p>in a form</p></form>',
      1_000_000,
    );
    expect(html).toBe(
      '<p>Hi <a>bad</a> <a href="https://ok.example/" target="_blank" rel="noopener noreferrer">ok</a></p>' +
        '<table><colgroup><col></colgroup><tbody><tr><td colspan="2">c</td></tr></tbody></table>' +
        '<pre><code class="language-js">1 &lt; 2</code></pre><code>z</code><ul data-type="taskList"><li data-type="taskItem" data-checked="true"><label><input type="checkbox" checked="checked" disabled></label><div><p>done</p></div></li></ul>' +
        '<span class="mention" data-type="mention">@Ada</span><p>in a form</p>',
    );
  });

  it('keeps a picture only as the WebP data its place names, with its description, and nothing else of it', () => {
    const webp = 'data:image/webp;base64,UklGRh4AAABXRUJQVlA4TBEAAAAvAAAAAAfQ//73v/+BiOh/AAA=';
    const pictures = new Map([
      ['/picture/0', webp],
      ['/picture/1', 'data:image/svg+xml;base64,PHN2Zy8+'],
      ['/picture/2', `${webp}" onerror="alert(1)`],
    ]);
    const { html } = sanitizeHtml(
      '<p><img src="/picture/0" alt="A &quot;chart&quot;" title="t" width="9" style="x" onerror="alert(1)"></p>' +
        `<p><img src="/picture/1" alt="svg"><img src="/picture/2" alt="quoted"><img src="/picture/3" alt="unknown"><img src="${webp}" alt="literal"><img alt="none"></p>`,
      1_000_000,
      pictures,
    );
    expect(html).toBe(`<p><img src="${webp}" alt="A &quot;chart&quot;"></p><p></p>`);
  });

  it('counts no picture data against the size', () => {
    const webp = `data:image/webp;base64,${'A'.repeat(10_000)}`;
    const { html, truncated } = sanitizeHtml('<p><img src="/picture/0" alt="big"></p><p>text</p>', 200, new Map([['/picture/0', webp]]));
    expect(truncated).toBe(false);
    expect(html).toBe(`<p><img src="${webp}" alt="big"></p><p>text</p>`);
  });

  it('cuts after the last whole top-level block within the size, and says so', () => {
    const blocks = Array.from({ length: 100 }, (_, i) => `<p>block ${i}</p>`).join('');
    const { html, truncated } = sanitizeHtml(blocks, 200);
    expect(truncated).toBe(true);
    expect(html.length).toBeLessThanOrEqual(200);
    expect(html).toMatch(/^(<p>block \d+<\/p>)+$/);
    expect(sanitizeHtml('<p>short</p>', 200)).toEqual({ html: '<p>short</p>', truncated: false });
  });
});
