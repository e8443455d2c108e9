import { readFileSync } from 'node:fs';
import { searchApi } from '@cabinet/contracts';
import { apiCall } from '../../fixtures/api.ts';
import { joinAsMember, uploadHere } from '../../fixtures/search.ts';
import { expect, test } from '../../fixtures/signed-in.ts';

const file = (name: string, mimeType: string) => ({ name, mimeType, buffer: readFileSync(new URL(`../../fixtures/files/${name}`, import.meta.url)) });

/** A word of each file, found only inside it: the PDF's text layer, the Word document's body, the picture's print (by OCR). */
const FILES = [
  { upload: file('harbour-survey.pdf', 'application/pdf'), word: 'pelican', passage: /silt near the pelican jetty/ },
  {
    upload: file('allotment-minutes.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'),
    word: 'rhubarb',
    passage: /rhubarb rota starts in spring/,
  },
  { upload: file('scanned-note.png', 'image/png'), word: 'zymurgy', passage: /7319 zymurgy/ },
];

test('words inside an uploaded PDF, a Word document and a scanned picture are found, with the passage; a member not given access finds none of them', async ({
  page,
  browser,
  workspace,
}) => {
  test.setTimeout(120_000);
  await page.getByRole('link', { name: 'My files' }).click();
  await expect(page.getByRole('heading', { name: 'My files', level: 1 })).toBeVisible();
  await uploadHere(
    page,
    FILES.map((f) => f.upload),
  );

  // Each file's details say its text was read (a picture's by OCR, which takes a few seconds).
  for (const { upload } of FILES) {
    await page.getByRole('button', { name: `Actions for ${upload.name}` }).click();
    await page.getByRole('menuitem', { name: 'Details' }).click();
    await expect(page.getByRole('table', { name: 'Details' }).getByRole('row', { name: /Search/ })).toContainText('Text indexed', { timeout: 60_000 });
    await page.keyboard.press('Escape');
  }

  const results = page.getByRole('list', { name: 'Search results' });
  for (const { upload, word, passage } of FILES) {
    await page.goto(`/w/${workspace.slug}/search?q=${word}`);
    const found = results.getByRole('listitem');
    await expect(found).toHaveCount(1);
    await expect(found.getByRole('link', { name: upload.name })).toBeVisible();
    await expect(found).toContainText(passage);
    await expect(found.locator('mark').first()).toHaveText(new RegExp(word, 'i'));
  }

  // As it is typed: the start of a word inside a file finds it too, the word marked whole.
  await page.goto(`/w/${workspace.slug}/search?q=pelic`);
  await expect(results.getByRole('listitem')).toHaveCount(1);
  await expect(results.getByRole('listitem').getByRole('link', { name: 'harbour-survey.pdf' })).toBeVisible();
  await expect(results.getByRole('listitem').locator('mark').first()).toHaveText(/^pelican$/i);

  // A member of the same workspace, given nothing: none of them, on the search page or in the palette.
  const { context: other, page: mia } = await joinAsMember(browser, page, workspace, 'Mia Member');
  for (const { upload, word } of FILES) {
    await mia.goto(`/w/${workspace.slug}/search?q=${word}`);
    await expect(mia.getByRole('heading', { name: `No results for “${word}”` })).toBeVisible();
    const byName = await apiCall(mia, searchApi.search, { params: { ws: workspace.id }, query: { q: upload.name.split('.')[0]! } });
    expect(byName.status).toBe(200);
    expect(byName.body.results).toEqual([]);
  }
  await other.close();
});
