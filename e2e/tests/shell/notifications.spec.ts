import { drawIn } from '../../fixtures/accessibility.ts';
import { expect, test } from '../../fixtures/signed-in.ts';
import { screen } from '../../fixtures/screens.ts';

// Enough for each width to trash four and still have a list that reaches the bottom of the window.
const names = Array.from({ length: 16 }, (_, i) => `file-${String(i).padStart(2, '0')}.txt`);

// At each width; drawn in both themes (the second by switching the page's scheme, as a person's system setting does).
test("notifications stack a few at a time, have a named close button, never cover a row's menu, and leave room to scroll the last row clear of them, at 1280 and 360 px", async ({
  page,
}) => {
  await page.goto(`${page.url()}/my`);
  await page.getByLabel('Files to upload').setInputFiles(names.map((name) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(name) })));
  const list = page.getByRole('table', { name: 'Contents of My files' });
  await expect(list.getByRole('link', { name: names.at(-1) })).toBeVisible();
  await page.getByRole('region', { name: 'Uploads' }).getByRole('button', { name: 'Close uploads' }).click();

  for (const [round, viewport] of [
    { width: 1280, height: 560 },
    { width: 360, height: 640 },
  ].entries()) {
    await page.setViewportSize(viewport);
    await page.evaluate(() => window.scrollTo(0, 0));
    // Four notifications at once.
    for (const name of names.slice(round * 4, round * 4 + 4)) {
      await list.getByRole('row', { name: new RegExp(name) }).press('Delete');
      await expect(list.getByRole('link', { name })).toBeHidden();
    }
    const toasts = page.getByRole('alert');
    await expect(toasts).toHaveCount(3);
    for (const toast of await toasts.all()) await expect(toast.getByRole('button', { name: 'Close notification' })).toBeVisible();

    // Scrolled to the end while the notifications are shown (the pointer on them keeps them open), the last row's
    // buttons are clear of them: the page leaves their room below it.
    const last = names.at(-1 - round)!;
    const actions = page.getByRole('button', { name: `Actions for ${last}` });
    await toasts.first().hover();
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect
      .poll(async () => ({
        shown: await toasts.count(),
        clear: await actions.evaluate((button) => {
          const r = button.getBoundingClientRect();
          return button.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
        }),
      }))
      .toEqual({ shown: 3, clear: true });
    // The last row's menu, at the bottom of the screen where notifications are: every item in the window is on top.
    await actions.click();
    const menu = page.getByRole('menu');
    await expect(menu.getByRole('menuitem', { name: 'Move to trash' })).toBeVisible();
    await expect
      .poll(() =>
        menu.evaluate((m) =>
          Array.from(m.querySelectorAll('[role="menuitem"]'))
            .filter((item) => {
              const r = item.getBoundingClientRect();
              // An item past the window's edge is reached by scrolling; one under a notification would not be.
              const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
              return hit !== null && !item.contains(hit);
            })
            .map((item) => item.textContent),
        ),
      )
      .toEqual([]);
    for (const scheme of ['light', 'dark'] as const) {
      await drawIn(page, scheme);
      await screen(page, `menu-over-notifications-${viewport.width}-${scheme}`);
    }
    await menu.getByRole('menuitem', { name: 'Move to trash' }).click();
    await expect(list.getByRole('link', { name: last })).toBeHidden();
    // The next width starts with none shown: each closed (the one still queued shows as another goes).
    if (round === 0)
      await expect(async () => {
        for (const close of await toasts.getByRole('button', { name: 'Close notification' }).all()) await close.click({ timeout: 1_000 }).catch(() => {});
        await expect(toasts).toHaveCount(0, { timeout: 500 });
      }).toPass({ timeout: 15_000 });
  }
});
