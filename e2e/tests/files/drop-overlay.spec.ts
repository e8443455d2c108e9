import { expect, test } from '../../fixtures/signed-in.ts';
import { screensInEachLook } from '../../fixtures/screens.ts';

test('the drop overlay covers the whole view, the List/Grid switch too, at 1280 and 360 px', async ({ page }) => {
  await page.goto(`${page.url()}/my`);
  await page.getByLabel('Files to upload').setInputFiles({ name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('a') });
  await expect(page.getByRole('table', { name: 'Contents of My files' }).getByRole('link', { name: 'a.txt' })).toBeVisible();

  const dataTransfer = await page.evaluateHandle(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['x'], 'x.txt', { type: 'text/plain' }));
    return dt;
  });
  await page.getByRole('heading', { name: 'My files', level: 1 }).dispatchEvent('dragover', { dataTransfer });
  const overlay = page.getByText('Drop to upload to “My files”');
  await expect(overlay).toBeVisible();
  await screensInEachLook(page, 'drop-overlay');
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 800 });
    // What is painted at the switch's middle is the overlay (it lets the drop through, so it is asked to take the pointer for the check),
    // once the resized page has laid itself out again.
    const onTop = async () => {
      const box = (await page.getByRole('radiogroup', { name: 'View' }).boundingBox())!;
      return overlay.evaluate(
        (text, [x, y]) => {
          const layer = text.parentElement!;
          layer.style.pointerEvents = 'auto';
          const hit = document.elementFromPoint(x!, y!);
          layer.style.pointerEvents = 'none';
          return layer.contains(hit);
        },
        [box.x + box.width / 2, box.y + box.height / 2],
      );
    };
    await expect.poll(onTop, { message: `at ${width} px` }).toBe(true);
  }
});
