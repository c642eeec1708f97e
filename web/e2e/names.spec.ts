import { expect, type Page, test } from '@playwright/test';
import { signIn, snap, switchToEnglish } from './support';

/**
 * Issue 9 item 7: names that would break an archive or a Windows folder are refused where they
 * are typed, with the reason in the interface language, and nothing is created.
 */
async function tryFolderName(page: Page, name: string, message: string) {
  await page.getByTestId('folder-name-input').fill(name);
  await page.getByTestId('folder-dialog-ok').click();
  await expect(page.getByText(message)).toBeVisible();
  await expect(page.getByTestId('folder-dialog-ok')).toBeVisible();
}

test('refuses folder names that cannot travel in a zip, in Chinese', async ({ page }) => {
  await signIn(page);
  await page.getByTestId('new-folder').click();
  await tryFolderName(page, '..', '名称不能是 . 或 ..');
  await tryFolderName(page, 'CON', 'CON 是 Windows 的保留名称，不能使用');
  await snap(page, 'folder-name-refused-zh');
  await page.getByRole('button', { name: /取\s*消/ }).click();
  await expect(page.locator('[data-testid="item-card"][data-name="CON"]')).toHaveCount(0);
});

test('refuses folder names that cannot travel in a zip, in English', async ({ page }) => {
  await switchToEnglish(page);
  await signIn(page);
  await page.getByTestId('new-folder').click();
  await tryFolderName(page, 'aux.txt', 'aux is a name Windows reserves and cannot be used');
  await tryFolderName(page, '.', 'Names cannot be . or ..');
  await snap(page, 'folder-name-refused-en');
});
