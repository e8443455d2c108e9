import { readFileSync } from 'node:fs';
import { expect, test } from '../../fixtures/signed-in.ts';

test('selects several items with the mouse and keyboard, downloads them as one zip, renames with F2 and trashes with Delete', async ({ page }) => {
  await page.getByRole('link', { name: 'My files' }).click();
  await page.getByLabel('Files to upload').setInputFiles([
    { name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('alpha') },
    { name: 'b.txt', mimeType: 'text/plain', buffer: Buffer.from('bravo') },
    { name: 'c.txt', mimeType: 'text/plain', buffer: Buffer.from('charlie') },
  ]);
  const list = page.getByRole('table', { name: 'Contents of My files' });
  await expect(list.getByRole('link', { name: 'c.txt' })).toBeVisible();

  // Click one row, Shift-click another: the range is selected.
  await list
    .getByRole('row', { name: /a\.txt/ })
    .getByRole('cell')
    .nth(2)
    .click();
  await list
    .getByRole('row', { name: /b\.txt/ })
    .getByRole('cell')
    .nth(2)
    .click({ modifiers: ['Shift'] });
  await expect(page.getByText('2 selected')).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download' }).click()]);
  const zip = readFileSync((await download.path())!);
  expect(zip.includes(Buffer.from('alpha'))).toBe(true);
  expect(zip.includes(Buffer.from('bravo'))).toBe(true);
  expect(zip.includes(Buffer.from('charlie'))).toBe(false);

  // Ctrl-A selects everything; Escape clears.
  await list.getByRole('row', { name: /a\.txt/ }).press('Control+a');
  await expect(page.getByText('3 selected')).toBeVisible();
  await list.getByRole('row', { name: /a\.txt/ }).press('Escape');
  await expect(page.getByText(/selected$/)).toBeHidden();

  // Arrows move, F2 renames the row in focus.
  await list
    .getByRole('row', { name: /a\.txt/ })
    .getByRole('cell')
    .nth(2)
    .click();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('F2');
  await page.getByLabel('New name').fill('bee.txt');
  await page.getByRole('button', { name: 'Rename' }).click();
  await expect(list.getByRole('link', { name: 'bee.txt' })).toBeVisible();

  // Details of a file.
  await page.getByRole('button', { name: 'Actions for c.txt' }).click();
  await page.getByRole('menuitem', { name: 'Details' }).click();
  const details = page.getByRole('dialog', { name: 'c.txt' });
  await expect(details.getByRole('table', { name: 'Details' })).toContainText('7 bytes');
  await expect(details).toContainText('You');
  await page.keyboard.press('Escape');

  // Delete moves the selection to the trash (bee.txt is still selected, c.txt joins it), with one Undo for both.
  await list.getByRole('checkbox', { name: 'Select c.txt' }).check();
  await expect(page.getByText('2 selected')).toBeVisible();
  await list.getByRole('row', { name: /c\.txt/ }).press('Delete');
  await expect(list.getByRole('link', { name: 'c.txt' })).toBeHidden();
  await expect(list.getByRole('link', { name: 'bee.txt' })).toBeHidden();
  await page.getByRole('alert').filter({ hasText: '2 items moved to the trash' }).getByRole('button', { name: 'Undo' }).click();
  await expect(list.getByRole('link', { name: 'c.txt' })).toBeVisible();
  await expect(list.getByRole('link', { name: 'bee.txt' })).toBeVisible();
});

test('closing a dialog, drawer or row menu gives the keyboard back to the control that opened it, and leaves the selection alone', async ({ page }) => {
  await page.getByRole('link', { name: 'My files' }).click();
  await page.getByLabel('Files to upload').setInputFiles([
    { name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('alpha') },
    { name: 'b.txt', mimeType: 'text/plain', buffer: Buffer.from('bravo') },
  ]);
  const list = page.getByRole('table', { name: 'Contents of My files' });
  await expect(list.getByRole('link', { name: 'b.txt' })).toBeVisible();
  const selected = page.getByText(/\d+ selected$/);

  // New folder and New document: Escape and Cancel give the focus back to their buttons.
  for (const [button, field] of [
    ['New folder', 'Folder name'],
    ['New document', 'Document name'],
  ] as const) {
    await page.getByRole('button', { name: button }).click();
    await expect(page.getByLabel(field)).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByRole('button', { name: button })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByLabel(field)).toBeFocused();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByRole('button', { name: button })).toBeFocused();
  }

  // A row's menu, from the keyboard: Escape closes it onto its button and selects nothing.
  const actions = page.getByRole('button', { name: 'Actions for a.txt' });
  await actions.focus();
  await page.keyboard.press('Enter');
  // Open once the keyboard is in it, on its first item.
  await expect(page.getByRole('menuitem', { name: 'Open' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toHaveCount(0);
  await expect(actions).toBeFocused();
  await expect(selected).toBeHidden();
  await expect(list.getByRole('row', { name: /a\.txt/ })).toHaveAttribute('aria-selected', 'false');

  // Choosing an item from the keyboard: the item acts, the focus comes back, the selection stays empty.
  // (Once the menu has put the keyboard on its first item, which would otherwise take it back from the one chosen.)
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Open' })).toBeFocused();
  await page.getByRole('menuitem', { name: 'Add star' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menu')).toHaveCount(0);
  await expect(actions).toBeFocused();
  await actions.click();
  await expect(page.getByRole('menuitem', { name: 'Remove star' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(selected).toBeHidden();

  // Rename and Details from the row's menu (now gone): Escape, Cancel and the close button give the focus to the row's ⋯ button.
  await actions.click();
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  await expect(page.getByLabel('New name')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(actions).toBeFocused();
  await actions.press('Enter');
  await page.getByRole('menuitem', { name: 'Rename' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(actions).toBeFocused();
  await actions.click();
  await page.getByRole('menuitem', { name: 'Details' }).click();
  await expect(page.getByRole('dialog', { name: 'a.txt' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(actions).toBeFocused();
  await actions.click();
  await page.getByRole('menuitem', { name: 'Details' }).click();
  await page.getByRole('dialog', { name: 'a.txt' }).getByRole('button', { name: 'Close' }).click();
  await expect(actions).toBeFocused();
  await expect(selected).toBeHidden();

  // Renamed from the menu: the focus is back on the row's ⋯ button, which now carries the new name.
  await actions.click();
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  await page.getByLabel('New name').fill('aa.txt');
  await page.keyboard.press('Enter');
  await expect(list.getByRole('link', { name: 'aa.txt' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Actions for aa.txt' })).toBeFocused();
  await expect(selected).toBeHidden();

  // F2 on a selected row: closing the dialog keeps that row in focus and selected, and nothing else.
  await list
    .getByRole('row', { name: /b\.txt/ })
    .getByRole('cell')
    .nth(2)
    .click();
  await expect(page.getByText('1 selected')).toBeVisible();
  await page.keyboard.press('F2');
  // Escape before the dialog is there would be the list's own (it clears the selection).
  await expect(page.getByLabel('New name')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(list.getByRole('row', { name: /b\.txt/ })).toBeFocused();
  await expect(page.getByText('1 selected')).toBeVisible();

  // The keyboard still selects: arrows move the selection, Space adds the row in focus or takes it out.
  await page.keyboard.press('ArrowUp');
  await expect(list.getByRole('row', { name: /aa\.txt/ })).toBeFocused();
  await expect(list.getByRole('row', { name: /aa\.txt/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('1 selected')).toBeVisible();
  await page.keyboard.press('Space');
  await expect(list.getByRole('row', { name: /aa\.txt/ })).toHaveAttribute('aria-selected', 'false');
  await expect(selected).toBeHidden();
  await page.keyboard.press('Space');
  await expect(page.getByText('1 selected')).toBeVisible();
  await page.keyboard.press('Shift+ArrowDown');
  await expect(page.getByText('2 selected')).toBeVisible();
});
