import { expect, test } from '@playwright/test';
import { seriousViolations } from '../../fixtures/accessibility.ts';

// The check every screen's test relies on, shown to find what it is meant to: in the page, in a frame that runs
// scripts, in a frame that runs none (checked from its markup), and in the other theme only. Without this, a check
// that found nothing anywhere would pass every screen.
const frameBody = '<p>A frame</p><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">';
const page = `<!doctype html><html lang="en"><head><title>A page to check</title>
<style>
  .quiet { color: #555; background: #fff; }
  @media (prefers-color-scheme: dark) { .quiet { background: #333; } }
</style></head>
<body><main>
  <h1>Checked</h1>
  <p class="quiet">Grey text that reads on white, not on dark grey.</p>
  <button></button>
  <iframe title="Scripted frame" srcdoc='${frameBody}'></iframe>
  <iframe title="Still frame" sandbox="" srcdoc='${frameBody}'></iframe>
</main></body></html>`;

// Shown in the light theme first, whatever the browser's default.
test.use({ colorScheme: 'light' });

test('the accessibility check finds what is wrong in the page, in each kind of frame, and in the other theme only', async ({ page: tab }) => {
  await tab.route('http://check.invalid/', (route) => route.fulfill({ contentType: 'text/html', body: page }));
  await tab.goto('http://check.invalid/');
  await expect(tab.frameLocator('iframe[title="Still frame"]').getByText('A frame')).toBeVisible();
  const found = await seriousViolations(tab);
  const ids = found.map((line) => line.replace(/ \(.*$/, '').replace(/: [^:]*$/, ''));
  expect(ids.sort()).toEqual(
    ['dark: color-contrast', 'light: button-name', 'light: frame "Scripted frame": image-alt', 'light: frame "Still frame": image-alt'].sort(),
  );
});
