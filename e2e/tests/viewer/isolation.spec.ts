import { itemsApi } from '@cabinet/contracts';
import { apiCall } from '../../fixtures/api.ts';
import { hostileFiles, watchForHostileEffects } from '../../fixtures/hostile-files.ts';
import { uploadHere } from '../../fixtures/search.ts';
import { expect, test } from '../../fixtures/signed-in.ts';

test('an HTML page, an SVG and a PDF with scripts, and a page named as a picture, run nothing when their addresses are opened', async ({ page, workspace }) => {
  await page.goto(`/w/${workspace.slug}/my`);
  await uploadHere(page, hostileFiles());
  const listed = await apiCall(page, itemsApi.children, { params: { ws: workspace.id, id: workspace.homeId }, query: {} });
  const seen = watchForHostileEffects(page);

  for (const file of listed.body.items.filter((i) => i.kind === 'file')) {
    const address = `/api/v1/items/${file.id}/content`;
    // Active types come as downloads; passive ones are shown by the browser, each answer a sandbox.
    const answer = page.waitForResponse((r) => r.url().includes('/storage/blob') || r.url().includes('X-Amz-Signature'));
    const download = page.waitForEvent('download', { timeout: 5_000 }).catch(() => null);
    await page.goto(address).catch(() => null);
    const response = await answer;
    expect(response.headers()['content-security-policy'], file.name).toBe("sandbox; default-src 'none'");
    expect(response.headers()['x-content-type-options'], file.name).toBe('nosniff');
    const disposition = response.headers()['content-disposition'] ?? '';
    if (/\.(html|svg)$/.test(file.name)) {
      expect(disposition, file.name).toMatch(/^attachment/);
      expect(await download, file.name).not.toBeNull();
    }
    await page.waitForLoadState('load').catch(() => null);
  }
  expect(seen).toEqual([]);
});
