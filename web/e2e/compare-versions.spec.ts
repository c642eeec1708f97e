import { expect, test } from '@playwright/test';
import { makeJpeg, makePng } from '../../server/test/fixtures';
import { expectAccessible } from './axe';
import { itemCard, newFolderWithFiles, signIn, snapBothSizes } from './support';

/**
 * Issue 43 item 4: two versions of a picture compared from the viewer's upload records, side by
 * side and (same pixel size) one over the other with a slider moved by the keyboard; Esc closes
 * the comparison only, the viewer stays.
 */
for (const lang of ['zh', 'en'] as const) {
  test(`compares two versions side by side and with a slider (${lang})`, async ({ page }) => {
    test.setTimeout(120_000);
    const stamp = `${lang}${Date.now() % 1_000_000}`;
    const file = `look-${stamp}`;
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.addInitScript((l) => window.localStorage.setItem('lang', l), lang);
    await signIn(page);
    await newFolderWithFiles(page, `compare-${stamp}`, [
      { name: `${file}.jpg`, mimeType: 'image/jpeg', buffer: await makeJpeg(800, 600) },
    ]);
    await expect(itemCard(page, file).locator('img')).toBeVisible({ timeout: 30_000 });
    await itemCard(page, file).getByRole('button', { name: file }).click();
    await expect(page.getByTestId('compare-open')).toHaveCount(0);

    // A retouched PNG of the same size joins as a version.
    await page
      .getByTestId('new-version-input')
      .setInputFiles({ name: `${file}.png`, mimeType: 'image/png', buffer: await makePng(800, 600) });
    await page.getByTestId('upload-finish').click();
    await expect(page.getByTestId('info-records').locator('.ant-list-item')).toHaveCount(2, {
      timeout: 30_000,
    });
    // The new version's pixel size is known once its media job has run: until then, side by side only.
    const side = page.getByTestId('compare-side');
    await expect(async () => {
      await page.reload();
      await itemCard(page, file).getByRole('button', { name: file }).click();
      await page.getByTestId('compare-open').click();
      await expect(side.locator('figcaption').filter({ hasText: '800 × 600' })).toHaveCount(2, {
        timeout: 2_000,
      });
    }).toPass({ timeout: 60_000 });
    await expect(side.locator('img')).toHaveCount(2);
    await snapBothSizes(page, `compare-side-${lang}`);
    await expectAccessible(page, `compare versions, side by side (${lang})`);

    await page
      .getByTestId('compare-mode')
      .getByText(lang === 'zh' ? '滑块叠加' : 'Slider overlay')
      .click();
    const top = page.getByTestId('compare-top');
    await expect(top).toHaveAttribute('style', /inset\(0px 0px 0px 50%\)/);
    await page.getByTestId('compare-slider').getByRole('slider').focus();
    for (let i = 0; i < 10; i += 1) await page.keyboard.press('ArrowRight');
    await expect(top).toHaveAttribute('style', /inset\(0px 0px 0px 60%\)/);
    await snapBothSizes(page, `compare-slider-${lang}`);
    await expectAccessible(page, `compare versions, slider (${lang})`);

    // Esc closes the comparison, not the viewer under it.
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('compare-slider')).toHaveCount(0);
    await expect(page.getByTestId('info-panel')).toBeVisible();
  });
}
