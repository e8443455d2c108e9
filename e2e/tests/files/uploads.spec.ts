import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { uploadsApi, urlOf } from '@cabinet/contracts';
import type { Page } from '@playwright/test';
import { apiCall } from '../../fixtures/api.ts';
import { expect, test } from '../../fixtures/signed-in.ts';
import { screen } from '../../fixtures/screens.ts';

const MiB = 1024 * 1024;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function tempFile(name: string, bytes: Buffer): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cabinet-e2e-files-'));
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

async function openMyFiles(page: Page) {
  await page.getByRole('link', { name: 'My files' }).click();
  await expect(page.getByRole('heading', { name: 'My files', level: 1 })).toBeVisible();
}

const uploads = (page: Page) => page.getByRole('region', { name: 'Uploads' });

/** Downloads an item through its menu and answers the bytes the browser saved. */
async function downloadThroughMenu(page: Page, name: string, action: 'Download' | 'Download as zip' = 'Download'): Promise<Buffer> {
  await page.getByRole('button', { name: `Actions for ${name}` }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: action }).click()]);
  return readFileSync((await download.path())!);
}

// A part PUT: to Cabinet on local storage, to the bucket on S3.
const isPart = (url: URL) => url.pathname.startsWith('/storage/parts/') || url.searchParams.has('partNumber');

test(
  'uploads files with the picker, shows progress, carries on by itself after Cabinet was out of reach, and downloads the same bytes',
  { tag: '@s3' },
  async ({ page }) => {
    await openMyFiles(page);
    const big = randomBytes(12 * MiB + 17);
    const small = Buffer.from('hello, cabinet\n');
    // After the first part, Cabinet (and its bucket) cannot be reached, as while it restarts: every request is refused,
    // its readiness probe too, until the outage ends (on S3 the parts go to the bucket, another origin, and are simply
    // tried again). The server's side of a restart (a part cut off mid-write, the upload found again, a part sent to
    // an address signed before the restart) is crash-recovery.system.test.ts's.
    let parts = 0;
    let refused = 0;
    let outage = false;
    await page.route('**/*', async (route) => {
      if (!outage && isPart(new URL(route.request().url())) && ++parts === 2) outage = true;
      if (!outage) return route.continue();
      refused++;
      return route.abort('connectionrefused');
    });
    await page.getByLabel('Files to upload').setInputFiles([tempFile('movie.bin', big), tempFile('note.txt', small)]);
    // Waiting for Cabinet is not complete: the upload waits, asking whether Cabinet is back.
    await expect.poll(() => refused, { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
    await expect(uploads(page).getByText('Uploads complete')).toBeHidden();
    outage = false;
    await page.unroute('**/*');
    await expect(uploads(page).getByText('Uploads complete')).toBeVisible({ timeout: 60_000 });
    await expect(uploads(page).getByRole('progressbar', { name: 'Overall upload progress' })).toHaveAttribute('aria-valuenow', '100');
    const list = page.getByRole('table', { name: 'Contents of My files' });
    await expect(list.getByRole('link', { name: 'movie.bin' })).toBeVisible();
    await expect(list.getByRole('row', { name: /note\.txt/ })).toContainText('15 B');

    expect(sha(await downloadThroughMenu(page, 'movie.bin'))).toBe(sha(big));
    expect((await downloadThroughMenu(page, 'note.txt')).toString()).toBe(small.toString());
    await uploads(page).getByRole('button', { name: 'Close uploads' }).click();
    await expect(uploads(page)).toBeHidden();
    // The storage used shows in the sidebar.
    await expect(page.getByText('12 MiB used')).toBeVisible();
  },
);

test('uploads a folder, recreating its structure, and downloads it as a zip', async ({ page }) => {
  await openMyFiles(page);
  const root = mkdtempSync(path.join(os.tmpdir(), 'cabinet-e2e-dir-'));
  const album = path.join(root, 'Album');
  mkdirSync(path.join(album, 'Day 1'), { recursive: true });
  const photo = randomBytes(300_000);
  writeFileSync(path.join(album, 'cover.txt'), 'cover');
  writeFileSync(path.join(album, 'Day 1', 'photo.jpg'), photo);
  await page.getByLabel('Folder to upload').setInputFiles(album);
  await expect(uploads(page).getByText('Uploads complete')).toBeVisible({ timeout: 30_000 });
  const list = page.getByRole('table', { name: 'Contents of My files' });
  await list.getByRole('link', { name: 'Album' }).click();
  await expect(page.getByRole('link', { name: 'cover.txt' })).toBeVisible();
  await page.getByRole('link', { name: 'Day 1' }).click();
  await expect(page.getByRole('link', { name: 'photo.jpg' })).toBeVisible();

  await page.getByRole('navigation', { name: 'Folder path' }).getByRole('link', { name: 'My files' }).click();
  const zip = await downloadThroughMenu(page, 'Album', 'Download as zip');
  expect(zip.subarray(0, 4).toString('hex')).toBe('504b0304');
  expect(zip.includes(photo)).toBe(true);
  expect(zip.includes(Buffer.from('Day 1/photo.jpg'))).toBe(true);

  // The same folder uploaded again with more in it fills the folders that are there rather than making copies.
  const again = path.join(mkdtempSync(path.join(os.tmpdir(), 'cabinet-e2e-dir-')), 'Album');
  mkdirSync(path.join(again, 'Day 1'), { recursive: true });
  writeFileSync(path.join(again, 'back.txt'), 'back');
  writeFileSync(path.join(again, 'Day 1', 'sunset.txt'), 'sunset');
  await uploads(page).getByRole('button', { name: 'Close uploads' }).click();
  await page.getByLabel('Folder to upload').setInputFiles(again);
  await expect(uploads(page).getByText('Uploads complete')).toBeVisible({ timeout: 30_000 });
  await expect(list.getByRole('link', { name: 'Album (2)' })).toHaveCount(0);
  await list.getByRole('link', { name: 'Album' }).click();
  await expect(page.getByRole('link', { name: 'back.txt' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Day 1 (2)' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Day 1' }).click();
  await expect(page.getByRole('link', { name: 'sunset.txt' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'photo.jpg' })).toBeVisible();
});

test('uploads a folder of many small files in a few calls, each file with its own bytes', async ({ page }) => {
  await openMyFiles(page);
  const root = mkdtempSync(path.join(os.tmpdir(), 'cabinet-e2e-dir-'));
  const notes = path.join(root, 'Notes');
  mkdirSync(notes);
  const contents = Array.from({ length: 30 }, (_, i) => `note ${i}: ${randomBytes(8).toString('hex')}\n`);
  contents.forEach((text, i) => writeFileSync(path.join(notes, `note-${String(i).padStart(2, '0')}.txt`), text));
  const calls = { start: 0, complete: 0, single: 0 };
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (request.method() !== 'POST') return;
    if (url.pathname.endsWith('/uploads/batch')) calls.start++;
    else if (url.pathname === urlOf(uploadsApi.completeMany)) calls.complete++;
    else if (/\/uploads$|\/uploads\/[^/]+\/complete$/.test(url.pathname)) calls.single++;
  });
  await page.getByLabel('Folder to upload').setInputFiles(notes);
  await expect(uploads(page).getByText('Uploads complete')).toBeVisible({ timeout: 30_000 });
  // Eight files a call at most, so 30 files take four calls to start and four to complete, or a few more.
  expect(calls.single).toBe(0);
  expect(calls.start).toBeGreaterThanOrEqual(4);
  expect(calls.start).toBeLessThanOrEqual(8);
  expect(calls.complete).toBe(calls.start);

  await uploads(page).getByRole('button', { name: 'Close uploads' }).click();
  await page.getByRole('table', { name: 'Contents of My files' }).getByRole('link', { name: 'Notes' }).click();
  const list = page.getByRole('table', { name: 'Contents of Notes' });
  await expect(list.getByRole('link', { name: 'note-00.txt' })).toBeVisible();
  expect((await downloadThroughMenu(page, 'note-03.txt')).toString()).toBe(contents[3]);
  expect((await downloadThroughMenu(page, 'note-08.txt')).toString()).toBe(contents[8]);
  await page.keyboard.press('End');
  await expect(list.getByRole('link', { name: 'note-29.txt' })).toBeVisible();
});

test('resumes an interrupted upload after a reload, once the file is chosen again', { tag: '@s3' }, async ({ page }) => {
  await openMyFiles(page);
  const bytes = randomBytes(21 * MiB);
  const file = tempFile('backup.tar', bytes);
  // The network drops after two parts have gone through.
  let parts = 0;
  await page.route(isPart, async (route) => {
    if (++parts <= 2) await route.continue();
    else await route.abort('internetdisconnected');
  });
  await page.getByLabel('Files to upload').setInputFiles(file);
  await expect.poll(() => parts, { timeout: 20_000 }).toBeGreaterThan(2);
  // What the storage holds of it, as Cabinet reports it.
  const ws = new URL(page.url()).pathname.split('/')[2]!;
  const stored = async () => {
    const [upload] = (await apiCall(page, uploadsApi.unfinished, { params: { ws } })).body.items;
    const status = (await apiCall(page, uploadsApi.get, { params: { id: upload!.id } })).body;
    return status.parts.reduce((sum, p) => sum + p.size, 0);
  };
  await expect.poll(stored).toBeGreaterThan(0);
  await page.reload();
  // The network comes back once the page is gone: what was stored is what the reload finds.
  await page.unroute(isPart);

  await expect(uploads(page).getByText('1 upload to resume')).toBeVisible();
  await expect(uploads(page).getByText('Choose the file again to resume')).toBeVisible();
  // The panel counts the bytes already stored, not 0.
  await expect(uploads(page).getByRole('progressbar', { name: 'Overall upload progress' })).toHaveAttribute(
    'aria-valuenow',
    String(Math.floor(((await stored()) / bytes.length) * 100)),
  );
  await screen(page, 'upload-resume');
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), uploads(page).getByRole('button', { name: 'Choose “backup.tar” to resume' }).click()]);
  await chooser.setFiles(file);
  await expect(uploads(page).getByText('Uploads complete')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('table', { name: 'Contents of My files' }).getByRole('link', { name: 'backup.tar' })).toBeVisible();
  expect(sha(await downloadThroughMenu(page, 'backup.tar'))).toBe(sha(bytes));
});

test('asks what to do when a name is taken, shows a hostile file name as text, and uploads files dropped on the page and on a folder row', async ({ page }) => {
  page.on('dialog', () => {
    throw new Error('a script from a file name or file ran');
  });
  await openMyFiles(page);
  const list = page.getByRole('table', { name: 'Contents of My files' });
  await page.getByLabel('Files to upload').setInputFiles(tempFile('plan.txt', Buffer.from('first')));
  await expect(list.getByRole('link', { name: 'plan.txt' })).toBeVisible();

  await page.getByLabel('Files to upload').setInputFiles(tempFile('plan.txt', Buffer.from('second!')));
  const dialog = page.getByRole('dialog', { name: 'A file with this name already exists' });
  await expect(dialog).toContainText('“plan (2).txt”');
  // Waiting for the person is not complete.
  await expect(uploads(page).getByRole('status')).toHaveText('1 upload waits for your answer');
  await dialog.getByRole('button', { name: 'Keep both' }).click();
  await expect(list.getByRole('link', { name: 'plan (2).txt' })).toBeVisible();

  await page.getByLabel('Files to upload').setInputFiles(tempFile('plan.txt', Buffer.from('third, longer')));
  await dialog.getByRole('button', { name: 'Replace' }).click();
  await expect(list.getByRole('row', { name: /plan\.txt/ })).toContainText('13 B');
  expect((await downloadThroughMenu(page, 'plan.txt')).toString()).toBe('third, longer');

  await page.getByLabel('Files to upload').setInputFiles(tempFile('plan.txt', Buffer.from('skipped')));
  await dialog.getByRole('button', { name: 'Skip' }).click();
  await expect(uploads(page).getByText('Skipped')).toBeVisible();
  await expect(list.getByRole('row')).toHaveCount(3);

  // A hostile file name is text, and its bytes come as an attachment.
  const name = '<img src=x onerror=alert(1)>.html';
  await page.getByLabel('Files to upload').setInputFiles({ name, mimeType: 'text/html', buffer: Buffer.from('<script>alert(1)</script>') });
  await expect(list.getByRole('link', { name })).toBeVisible();
  await page.getByLabel('Files to upload').setInputFiles({
    name: 'logo.svg',
    mimeType: 'image/svg+xml',
    buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
  });
  await expect(list.getByRole('link', { name: 'logo.svg' })).toBeVisible();
  // Its bytes (what the viewer's Download and the API give) come as an attachment, never rendered on the app's origin.
  for (const file of [name, 'logo.svg']) {
    const href = await list.getByRole('link', { name: file }).getAttribute('href');
    const id = href!.split('/file/')[1]!;
    const res = await page.request.get(`/api/v1/items/${id}/content`);
    expect(res.headers()['content-disposition']).toMatch(/^attachment/);
    // Bytes served by Cabinet (local storage) are never sniffed; a bucket is another origin anyway.
    if (new URL(res.url()).origin === new URL(page.url()).origin) expect(res.headers()['x-content-type-options']).toBe('nosniff');
  }
  await expect(page.getByRole('heading', { name: 'My files', level: 1 })).toBeVisible();

  // Files dropped on the page and on a folder row.
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByLabel('Folder name').fill('Inbox');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(list.getByRole('link', { name: 'Inbox' })).toBeVisible();

  const drop = async (target: ReturnType<Page['locator']>, fileName: string, text: string) => {
    const dataTransfer = await page.evaluateHandle(
      ([n, t]) => {
        const dt = new DataTransfer();
        dt.items.add(new File([t], n, { type: 'text/plain' }));
        return dt;
      },
      [fileName, text] as const,
    );
    await target.dispatchEvent('dragover', { dataTransfer });
    await target.dispatchEvent('drop', { dataTransfer });
  };
  await drop(page.getByRole('heading', { name: 'My files', level: 1 }), 'dropped.txt', 'on the page');
  await expect(list.getByRole('link', { name: 'dropped.txt' })).toBeVisible();
  await drop(list.getByRole('row', { name: /Inbox/ }), 'into-folder.txt', 'on a row');
  await list.getByRole('link', { name: 'Inbox' }).click();
  await expect(page.getByRole('table', { name: 'Contents of Inbox' }).getByRole('link', { name: 'into-folder.txt' })).toBeVisible();
});
