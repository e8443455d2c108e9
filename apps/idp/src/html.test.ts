import { expect, it } from 'vitest';
import { html, raw } from './html.ts';

it('escapes every interpolated value unless it is marked as markup', () => {
  const name = '<img src=x onerror=alert(1)>"\'&';
  expect(html`<p title="${name}">${name}</p>`.value).toBe(
    '<p title="&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;">&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;</p>',
  );
  expect(html`<div>${raw('<b>ok</b>')}${[html`<i>${'<'}</i>`, null, false]}</div>`.value).toBe('<div><b>ok</b><i>&lt;</i></div>');
});
