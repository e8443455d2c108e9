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

  it('cuts after the last whole top-level block within the size, and says so', () => {
    const blocks = Array.from({ length: 100 }, (_, i) => `<p>block ${i}</p>`).join('');
    const { html, truncated } = sanitizeHtml(blocks, 200);
    expect(truncated).toBe(true);
    expect(html.length).toBeLessThanOrEqual(200);
    expect(html).toMatch(/^(<p>block \d+<\/p>)+$/);
    expect(sanitizeHtml('<p>short</p>', 200)).toEqual({ html: '<p>short</p>', truncated: false });
  });
});
