import { meApi, urlOf } from '@cabinet/contracts';
import { expect, test } from '../../fixtures/signed-in.ts';
import { screensInEachLook } from '../../fixtures/screens.ts';

test('a failure to reach Cabinet is not mistaken for being signed out', async ({ page }) => {
  const here = page.url();
  const me = `**${urlOf(meApi.get)}`;
  await page.route(me, (route) => route.abort('connectionrefused'));
  await page.reload();
  await expect(page.getByText('Cabinet cannot be reached right now.')).toBeVisible({ timeout: 20_000 });
  expect(page.url()).toBe(here);
  await page.unroute(me);
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { name: /Welcome/ })).toBeVisible();
});

test('the offline banner keeps its distance from the breadcrumb at 1280 and 360 px', async ({ page, context }) => {
  await page.goto(`${page.url()}/my`);
  const path = page.getByRole('navigation', { name: 'Folder path' });
  await expect(path).toBeVisible();
  await context.setOffline(true);
  const banner = page.getByRole('status').filter({ hasText: 'You are offline' });
  await expect(banner).toBeVisible();
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 800 });
    // Measured once the resized page has laid itself out again (the banner wraps to two lines on a phone).
    const gap = async () => {
      const [above, below] = [(await banner.boundingBox())!, (await path.boundingBox())!];
      return below.y - (above.y + above.height);
    };
    await expect.poll(gap, { message: `at ${width} px` }).toBeGreaterThanOrEqual(12);
  }
  await screensInEachLook(page, 'offline');
  await context.setOffline(false);
  await expect(banner).toBeHidden();
});
