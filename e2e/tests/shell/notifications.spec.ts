import { expect, test } from '../../fixtures/signed-in.ts';

const names = Array.from({ length: 10 }, (_, i) => `file-${i}.txt`);

for (const scheme of ['light', 'dark'] as const) {
  for (const viewport of [
    { width: 1280, height: 560 },
    { width: 360, height: 640 },
  ]) {
    test.describe(() => {
      test.use({ viewport, colorScheme: scheme });

      test(`notifications stack a few at a time, have a named close button, and never cover a row's menu (${viewport.width} px, ${scheme})`, async ({
        page,
      }) => {
        await page.goto(`${page.url()}/my`);
        await page.getByLabel('Files to upload').setInputFiles(names.map((name) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(name) })));
        const list = page.getByRole('table', { name: 'Contents of My files' });
        await expect(list.getByRole('link', { name: names.at(-1) })).toBeVisible();
        await page.getByRole('region', { name: 'Uploads' }).getByRole('button', { name: 'Close uploads' }).click();

        // Four notifications at once.
        for (const name of names.slice(0, 4)) {
          await list.getByRole('row', { name: new RegExp(name) }).press('Delete');
          await expect(list.getByRole('link', { name })).toBeHidden();
        }
        const toasts = page.getByRole('alert');
        await expect(toasts).toHaveCount(3);
        for (const toast of await toasts.all()) await expect(toast.getByRole('button', { name: 'Close notification' })).toBeVisible();

        // The last row's menu, at the bottom of the screen where notifications are: every item is on top.
        const last = names.at(-1)!;
        await list.getByRole('row', { name: new RegExp(last) }).scrollIntoViewIfNeeded();
        await page.getByRole('button', { name: `Actions for ${last}` }).click();
        const menu = page.getByRole('menu');
        await expect(menu.getByRole('menuitem', { name: 'Move to trash' })).toBeVisible();
        await expect
          .poll(() =>
            menu.evaluate((m) =>
              Array.from(m.querySelectorAll('[role="menuitem"]'))
                .filter((item) => {
                  const r = item.getBoundingClientRect();
                  return !item.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
                })
                .map((item) => item.textContent),
            ),
          )
          .toEqual([]);
        await page.screenshot({ path: `test-results/screens/menu-over-notifications-${viewport.width}-${scheme}.png` });
        await menu.getByRole('menuitem', { name: 'Move to trash' }).click();
        await expect(list.getByRole('link', { name: last })).toBeHidden();
      });
    });
  }
}
