import { itemsApi, meApi, urlOf, workspacesApi } from '@cabinet/contracts';
import { apiCall } from '../../fixtures/api.ts';
import { expect, test } from '../../fixtures/signed-in.ts';

test('a second window sees folders appear, get renamed and go away without a reload', async ({ page }) => {
  await page.getByRole('link', { name: 'My files' }).click();
  await expect(page.getByRole('heading', { name: 'My files', level: 1 })).toBeVisible();
  // Same person, second window (the session cookie is shared within the context).
  const other = await page.context().newPage();
  await other.goto(page.url());
  const list = other.getByRole('main');
  await expect(other.getByRole('heading', { name: 'My files', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByLabel('Folder name').fill('Live one');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(list.getByRole('link', { name: 'Live one' })).toBeVisible();

  await page.getByRole('button', { name: 'Actions for Live one' }).click();
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  await page.getByLabel('New name').fill('Live two');
  await page.getByRole('button', { name: 'Rename' }).click();
  await expect(list.getByRole('link', { name: 'Live two' })).toBeVisible();

  await page.getByRole('button', { name: 'Actions for Live two' }).click();
  await page.getByRole('menuitem', { name: 'Move to trash' }).click();
  await expect(list.getByText('This folder is empty')).toBeVisible();
});

test('a page opened afresh fetches what it shows once: its live stream starts where its answers stood, and later changes still arrive', async ({ page }) => {
  await page.getByRole('link', { name: 'My files' }).click();
  await expect(page.getByRole('heading', { name: 'My files', level: 1 })).toBeVisible();
  const url = page.url();
  // A change a moment before the page is opened afresh: the page shows it from its answers, and its stream must not announce it again.
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByLabel('Folder name').fill('Just before');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('main').getByRole('link', { name: 'Just before' })).toBeVisible();
  // What the stream says, as the page hears it.
  await page.addInitScript(() => {
    const Native = window.EventSource;
    window.EventSource = class extends Native {
      constructor(...args: ConstructorParameters<typeof EventSource>) {
        super(...args);
        for (const type of ['ready', 'reset', 'item']) this.addEventListener(type, () => ((window as unknown as { heard: string[] }).heard ??= []).push(type));
      }
    };
  });
  const fetched: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'GET' && new URL(r.url()).pathname.startsWith('/api/v1/')) fetched.push(new URL(r.url()).pathname + new URL(r.url()).search);
  });
  await page.goto(url);
  await expect(page.getByRole('heading', { name: 'My files', level: 1 })).toBeVisible();
  await expect(page.getByRole('main').getByRole('link', { name: 'Just before' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => (window as unknown as { heard?: string[] }).heard)).toEqual(['ready']);
  // A request sent now comes after any the stream's first words set off.
  await page.evaluate((url) => fetch(url), urlOf(meApi.get));
  expect(fetched.filter((p) => p.includes('/children'))).toHaveLength(1);
  expect(fetched.filter((p) => p === urlOf(workspacesApi.list))).toHaveLength(1);
  // One stream, the workspace's, opened from where the answers stood: the bell's own stream is not opened on a workspace's page, not even while it loads.
  expect(fetched.filter((p) => /\/events(\?|$)/.test(p))).toEqual([expect.stringMatching(/^\/api\/v1\/workspaces\/[^/]+\/events\?after=\d+$/)]);
  // A change made elsewhere after the page loaded still arrives live.
  const workspace = (await apiCall(page, workspacesApi.list)).body.items.find((w) => new URL(page.url()).pathname.startsWith(`/w/${w.slug}/`))!;
  const made = await apiCall(page, itemsApi.create, {
    params: { ws: workspace.id },
    body: { kind: 'folder', name: 'Made elsewhere', parentId: workspace.homeId },
  });
  expect(made.status).toBe(201);
  await expect(page.getByRole('main').getByRole('link', { name: 'Made elsewhere' })).toBeVisible();
});

test('stars a file, finds it in Starred and Recent, and moves it by dragging onto a folder', async ({ page }) => {
  await page.getByRole('link', { name: 'My files' }).click();
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByLabel('Folder name').fill('Archive');
  await page.getByRole('button', { name: 'Create' }).click();
  const list = page.getByRole('table', { name: 'Contents of My files' });
  await page.getByLabel('Files to upload').setInputFiles({ name: 'minutes.txt', mimeType: 'text/plain', buffer: Buffer.from('minutes') });
  await expect(list.getByRole('link', { name: 'minutes.txt' })).toBeVisible();

  await page.getByRole('button', { name: 'Actions for minutes.txt' }).click();
  await page.getByRole('menuitem', { name: 'Add star' }).click();
  await page.getByRole('link', { name: 'Starred', exact: true }).click();
  await expect(page.getByRole('table', { name: 'Starred' }).getByRole('link', { name: 'minutes.txt' })).toBeVisible();
  await page.getByRole('link', { name: 'Recent', exact: true }).click();
  await expect(page.getByRole('table', { name: 'Recent' }).getByRole('link', { name: 'minutes.txt' })).toBeVisible();

  await page.getByRole('link', { name: 'My files' }).click();
  await list.getByRole('row', { name: /minutes\.txt/ }).dragTo(list.getByRole('row', { name: /Archive/ }));
  await expect(page.getByText('Moved “minutes.txt” to “Archive”')).toBeVisible();
  await expect(list.getByRole('link', { name: 'minutes.txt' })).toBeHidden();
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(list.getByRole('link', { name: 'minutes.txt' })).toBeVisible();
});

test('moves several selected items at once by dragging them onto a breadcrumb', async ({ page }) => {
  await page.getByRole('link', { name: 'My files' }).click();
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByLabel('Folder name').fill('Inner');
  await page.getByRole('button', { name: 'Create' }).click();
  await page.getByRole('table', { name: 'Contents of My files' }).getByRole('link', { name: 'Inner' }).click();
  const list = page.getByRole('table', { name: 'Contents of Inner' });
  // Files go where the page is: chosen before Inner is shown, they would go to My files.
  await expect(page.getByRole('heading', { name: 'Inner', level: 1 })).toBeVisible();
  await page.getByLabel('Files to upload').setInputFiles([
    { name: 'x.txt', mimeType: 'text/plain', buffer: Buffer.from('x') },
    { name: 'y.txt', mimeType: 'text/plain', buffer: Buffer.from('y') },
  ]);
  await expect(list.getByRole('link', { name: 'y.txt' })).toBeVisible();
  await list.getByRole('checkbox', { name: 'Select x.txt' }).check();
  await list.getByRole('checkbox', { name: 'Select y.txt' }).check();
  await list.getByRole('row', { name: /x\.txt/ }).dragTo(page.getByRole('navigation', { name: 'Folder path' }).getByRole('link', { name: 'My files' }));
  await expect(page.getByText('This folder is empty')).toBeVisible();
  await page.getByRole('navigation', { name: 'Folder path' }).getByRole('link', { name: 'My files' }).click();
  const home = page.getByRole('table', { name: 'Contents of My files' });
  await expect(home.getByRole('link', { name: 'x.txt' })).toBeVisible();
  await expect(home.getByRole('link', { name: 'y.txt' })).toBeVisible();
});
