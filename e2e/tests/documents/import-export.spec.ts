import { readFile } from 'node:fs/promises';
import type { Route } from '@playwright/test';
import { expect, test } from '../../fixtures/signed-in.ts';

const MARKDOWN = `# Handbook

Welcome to **the team**. Read [the guide](https://example.com/guide).

## First week

- laptop
- accounts
  - email

1. meet
2. ship

- [ ] read this
- [x] sign in

> Ask anything.

\`\`\`python
print("hello")
\`\`\`

| day | task |
| --- | --- |
| Monday | setup |

![team photo](https://example.com/team.png)
`;

test('imports a Markdown file as a document and exports it again as Markdown, HTML and PDF', async ({ page }) => {
  await page.getByRole('link', { name: 'My files' }).click();
  // Home's "Upload files" is another button: wait until My files is the page.
  await expect(page.getByRole('heading', { name: 'My files', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await page.getByRole('menuitem', { name: /Import as document/ }).click();
  await page.getByLabel('Files to import as documents').setInputFiles({ name: 'Handbook.md', mimeType: 'text/markdown', buffer: Buffer.from(MARKDOWN) });
  await expect(page.getByRole('heading', { level: 1, name: 'Handbook' }).first()).toBeVisible();
  const editor = page.getByLabel('Content of Handbook');
  await expect(editor.getByRole('heading', { level: 2, name: 'First week' })).toBeVisible();
  await expect(editor.locator('table')).toContainText('Monday');
  await expect(editor.getByRole('link', { name: 'the guide' })).toHaveAttribute('href', 'https://example.com/guide');
  await expect(editor.locator('pre code')).toContainText('print("hello")');
  await expect(editor.getByRole('checkbox')).toHaveCount(2);

  const download = async (name: RegExp) => {
    await page.getByRole('button', { name: 'Document actions' }).click();
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name }).click()]);
    return { name: file.suggestedFilename(), bytes: await readFile((await file.path())!) };
  };
  const md = await download(/Markdown/);
  expect(md.name).toBe('Handbook.md');
  const text = md.bytes.toString('utf8');
  for (const piece of [
    '# Handbook',
    '**the team**',
    '[the guide](https://example.com/guide)',
    '## First week',
    '- laptop',
    '  - email',
    '1. meet',
    '- [ ] read this',
    '- [x] sign in',
    '> Ask anything.',
    '```python',
    '| Monday',
    '![team photo](https://example.com/team.png)',
  ])
    expect(text).toContain(piece);
  const html = await download(/Web page/);
  expect(html.name).toBe('Handbook.html');
  expect(html.bytes.toString('utf8')).toContain('<h2>First week</h2>');
  const pdf = await download(/PDF/);
  expect(pdf.name).toBe('Handbook.pdf');
  expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');

  // The exported Markdown imports back to the same document.
  await page.getByRole('navigation', { name: 'Folder path' }).getByRole('link', { name: 'My files' }).click();
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await page.getByRole('menuitem', { name: /Import as document/ }).click();
  await page.getByLabel('Files to import as documents').setInputFiles({ name: 'Handbook.md', mimeType: 'text/markdown', buffer: md.bytes });
  await expect(page.getByRole('heading', { level: 1, name: /Handbook \(/ })).toBeVisible();
  expect((await download(/Markdown/)).bytes.toString('utf8')).toBe(text);
});

test('explains a file that is not what its name says, shows an import’s progress and stops it on Cancel, making nothing', async ({ page }) => {
  await page.getByRole('link', { name: 'My files' }).click();
  await expect(page.getByRole('heading', { name: 'My files', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await page.getByRole('menuitem', { name: /Import as document/ }).click();
  await page
    .getByLabel('Files to import as documents')
    .setInputFiles({ name: 'Report.docx', mimeType: 'application/octet-stream', buffer: Buffer.from('just some text, not a Word file') });
  await expect(page.getByText('“Report.docx” was not imported')).toBeVisible();
  await expect(page.getByText('This file is not a Word document (.docx).')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'This folder is empty' })).toBeVisible();

  // An import's progress shows, and Cancel stops it, making nothing.
  // The server is slow to answer: the import waits, as a large file on a slow line would.
  let held: Route | undefined;
  await page.route('**/documents/import**', (route) => void (held = route));
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await page.getByRole('menuitem', { name: /Import as document/ }).click();
  await page
    .getByLabel('Files to import as documents')
    .setInputFiles({ name: 'Notes.md', mimeType: 'text/markdown', buffer: Buffer.from('# Notes\n\nSome text.') });
  await expect(page.getByRole('progressbar', { name: 'Importing Notes.md' })).toHaveAttribute('aria-valuenow', /^\d+$/);
  await expect(page.getByText('Importing “Notes.md”')).toBeVisible();
  await expect.poll(() => !!held).toBe(true);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('Stopped importing “Notes.md”')).toBeVisible();
  // What the browser gave up never reaches the server (unrouting would let a held request go on).
  await held?.abort().catch(() => {});
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'This folder is empty' })).toBeVisible();
});
