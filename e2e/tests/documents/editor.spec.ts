import { newDocument } from '../../fixtures/documents.ts';
import { expect, test } from '../../fixtures/signed-in.ts';
import { screen } from '../../fixtures/screens.ts';

test('formats with Markdown shortcuts, the toolbar, the slash menu, links and mentions', async ({ page, person: me }) => {
  const editor = await newDocument(page, 'Formatting');
  const toolbar = page.getByRole('toolbar', { name: 'Formatting' });

  // Markdown shortcuts as you type.
  await page.keyboard.type('# Plan');
  await page.keyboard.press('Enter');
  await page.keyboard.type('- first');
  await page.keyboard.press('Enter');
  await page.keyboard.type('second');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.keyboard.type('[ ] a task');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.keyboard.type('> wise words');
  await page.keyboard.press('Enter');
  await expect(editor.getByRole('heading', { level: 1, name: 'Plan' })).toBeVisible();
  await expect(editor.locator('ul:not([data-type]) > li')).toHaveCount(2);
  await expect(editor.getByRole('checkbox')).toHaveCount(1);
  await expect(editor.locator('blockquote')).toHaveText('wise words');

  // The toolbar says what is on, and turns it on and off.
  await expect(toolbar.getByRole('button', { name: 'Quote' })).toHaveAttribute('aria-pressed', 'true');
  await toolbar.getByRole('button', { name: 'Quote' }).click();
  await expect(toolbar.getByRole('button', { name: 'Quote' })).toHaveAttribute('aria-pressed', 'false');
  await page.keyboard.type('plain ');
  await toolbar.getByRole('button', { name: 'Bold' }).click();
  await expect(toolbar.getByRole('button', { name: 'Bold' })).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.type('strong');
  await toolbar.getByRole('button', { name: 'Bold' }).click();
  await expect(editor.locator('strong')).toHaveText('strong');

  // The slash menu inserts blocks by name.
  await page.keyboard.press('Enter');
  await page.keyboard.type('/code');
  await expect(page.getByRole('listbox', { name: 'Insert a block' }).getByRole('option', { name: /Code block/ })).toBeVisible();
  await page.keyboard.press('Enter');
  await page.keyboard.type('const answer = 42;');
  await expect(editor.locator('pre code')).toHaveText('const answer = 42;');
  await page.getByLabel('Code language').selectOption('javascript');
  await expect(editor.locator('pre code .hljs-keyword').first()).toHaveText('const');
  // Three Enters leave a code block.
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.keyboard.type('/table');
  await page.keyboard.press('Enter');
  await expect(editor.locator('table tr')).toHaveCount(3);
  await page.keyboard.type('Name');
  await toolbar.getByRole('button', { name: 'Table options' }).click();
  await page.getByRole('menuitem', { name: 'Add row below' }).click();
  await expect(editor.locator('table tr')).toHaveCount(4);

  // A link on the selection, through the dialog.
  await page.keyboard.press('Control+End');
  await page.keyboard.type('/text');
  await page.keyboard.press('Enter');
  await page.keyboard.type('see the site');
  await page.keyboard.press('Shift+Home');
  await toolbar.getByRole('button', { name: 'Link' }).click();
  await page.getByLabel('Link address').fill('javascript:alert(1)');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('Enter a web address')).toBeVisible();
  await page.getByLabel('Link address').fill('example.com/docs');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(editor.getByRole('link', { name: 'see the site', exact: true })).toHaveAttribute('href', 'https://example.com/docs');

  // Mentions offer the workspace's members.
  await page.keyboard.press('End');
  await page.keyboard.type(' with @' + me.name.slice(0, 4));
  await expect(page.getByRole('listbox', { name: 'Mention someone' }).getByRole('option', { name: new RegExp(me.name) })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(editor.locator('.mention')).toHaveText(`@${me.name}`);

  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  await screen(page, 'document-editor', { fullPage: true });
  // All of it comes back from the server.
  await page.reload();
  await expect(page.getByLabel('Content of Formatting').locator('.mention')).toHaveText(`@${me.name}`);
  await expect(page.getByLabel('Content of Formatting').locator('table tr')).toHaveCount(4);
});

test('pasted HTML keeps its text and structure but loses scripts, event handlers and javascript: links; the formatting toolbar is one Tab stop', async ({
  page,
}) => {
  const editor = await newDocument(page, 'Pasted');
  await page.evaluate(() => {
    (window as unknown as { pwned: boolean }).pwned = false;
    const data = new DataTransfer();
    data.setData(
      'text/html',
      '<h2 onclick="window.pwned=true">Pasted title</h2><p>Read <a href="javascript:window.pwned=true">this</a> and <a href="https://example.com/safe">that</a>.</p><script>window.pwned=true</script><img src="x" onerror="window.pwned=true"><iframe src="javascript:window.pwned=true"></iframe>',
    );
    data.setData('text/plain', 'Pasted title');
    document.querySelector('.ProseMirror')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  });
  await expect(editor.getByRole('heading', { level: 2, name: 'Pasted title' })).toBeVisible();
  await expect(editor.getByRole('link', { name: 'that' })).toHaveAttribute('href', 'https://example.com/safe');
  await expect(editor.getByRole('link', { name: 'this' })).toHaveCount(0);
  await expect(editor).toContainText('Read this and that.');
  expect(await editor.evaluate((el) => el.querySelectorAll('script, iframe, [onclick], [onerror], a[href^="javascript"]').length)).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { pwned: boolean }).pwned)).toBe(false);

  // The formatting toolbar is one Tab stop: arrows move along it, wrapping, and it remembers where the keyboard was.
  await editor.press('Control+End');
  const toolbar = page.getByRole('toolbar', { name: 'Formatting' });
  const button = (name: string) => toolbar.getByRole('button', { name, exact: true });
  await page.keyboard.type('Some text');
  await expect(editor).toContainText('Some text');
  await expect(button('Undo')).toBeEnabled();
  // One control takes Tab; the rest are reached with arrows.
  await expect(toolbar.locator('[tabindex="0"]')).toHaveCount(1);
  await page.keyboard.press('Shift+Tab');
  const first = toolbar.locator(':focus');
  await expect(first).toHaveAttribute('tabindex', '0');
  await page.keyboard.press('Home');
  await expect(button('Undo')).toBeFocused();
  // Redo cannot be used yet: the arrows pass it.
  await page.keyboard.press('ArrowRight');
  await expect(button('Heading 1')).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(button('Heading 2')).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(button('Undo')).toBeFocused();
  // Left from the first wraps to the last, Right from the last to the first.
  await page.keyboard.press('ArrowLeft');
  await expect(button('Table')).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(button('Undo')).toBeFocused();
  await page.keyboard.press('End');
  await expect(button('Table')).toBeFocused();
  // Tab leaves the toolbar; coming back lands on the control last used, the only one with tabindex=0.
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowLeft');
  await expect(button('Quote')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(toolbar.locator(':focus')).toHaveCount(0);
  await page.keyboard.press('Shift+Tab');
  await expect(button('Quote')).toBeFocused();
  await expect(button('Quote')).toHaveAttribute('tabindex', '0');
  await expect(toolbar.locator('[tabindex="0"]')).toHaveCount(1);
  // The controls still work from the keyboard.
  await page.keyboard.press('Enter');
  await expect(button('Quote')).toHaveAttribute('aria-pressed', 'true');
});
