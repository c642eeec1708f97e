import { expect, type Page, test } from '@playwright/test';
import { makeJpeg, makePng } from '../../server/test/fixtures';
import {
  itemCard,
  newFolderWithFiles,
  reportFigureShown,
  settledReport,
  signIn,
  snapBothSizes,
} from './support';

const words = {
  zh: {
    folder: '层级',
    tagsTitle: /打标签/,
    merge: '合并文件？',
    discard: '放弃修改？',
    discardOk: '放弃修改',
  },
  en: {
    folder: 'Layers',
    tagsTitle: /Tags of/,
    merge: 'Merge files?',
    discard: 'Discard changes?',
    discardOk: 'Discard changes',
  },
};

for (const lang of ['zh', 'en'] as const) {
  test(`Esc closes only the top-most layer over the viewer; leaving an edit with changes asks first (${lang})`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const w = words[lang];
    // The stored language choice, as the top-bar switch leaves it (support.ts switchToEnglish).
    await page.addInitScript((l) => window.localStorage.setItem('lang', l), lang);
    await signIn(page);
    const stem = `LAYER${lang.toUpperCase()}`;
    await newFolderWithFiles(page, `${w.folder}-${Date.now()}`, [
      { name: `${stem}1.jpg`, mimeType: 'image/jpeg', buffer: await makeJpeg(400, 300) },
      { name: `${stem}2.png`, mimeType: 'image/png', buffer: await makePng(300, 300) },
    ]);
    await expect(itemCard(page, `${stem}1`)).toBeVisible({ timeout: 30_000 });
    await expect(itemCard(page, `${stem}2`)).toBeVisible({ timeout: 30_000 });
    await itemCard(page, `${stem}1`)
      .getByRole('button', { name: `${stem}1` })
      .click();
    const viewer = page.getByTestId('file-viewer');
    await expect(page.getByTestId('viewer-title')).toHaveText(`${stem}1`);

    // Edit mode with a change not saved, then the tag picker over it: Esc closes the picker only.
    await page.getByTestId('viewer-edit').click();
    await page.getByTestId('edit-name').fill(`${stem}1-new`);
    await page.getByTestId('edit-tags').click();
    const picker = page.getByRole('dialog', { name: w.tagsTitle });
    await expect(picker).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(picker).toBeHidden();
    await expect(viewer).toBeVisible();
    await expect(page.getByTestId('edit-name')).toHaveValue(`${stem}1-new`);

    // A name another file has, with no format in common: "merge files?". Esc closes that question only.
    await page.getByTestId('edit-name').fill(`${stem}2`);
    await page.getByTestId('edit-save').click();
    const merge = page.getByRole('dialog').filter({ hasText: w.merge });
    await expect(merge).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(merge).toBeHidden();
    // Gone, not only faded: a layer left behind would keep the viewer's keys and clicks from it.
    await expect(page.locator('.ant-modal-wrap')).toHaveCount(0);
    await expect(viewer).toBeVisible();
    await expect(page.getByTestId('edit-name')).toHaveValue(`${stem}2`);

    // Closing with the change not saved asks; Esc on that question keeps the viewer and the edit.
    await page.getByTestId('viewer-close').click();
    const discard = page.getByRole('dialog').filter({ hasText: w.discard });
    await expect(discard).toBeVisible();
    await snapBothSizes(page, `viewer-discard-${lang}`);
    await page.keyboard.press('Escape');
    await expect(discard).toBeHidden();
    await expect(page.getByTestId('edit-name')).toHaveValue(`${stem}2`);
    // Esc on the viewer itself asks too, and agreeing closes it; the file keeps its name.
    await page.getByTestId('viewer-title').click();
    await page.keyboard.press('Escape');
    await expect(discard).toBeVisible();
    await discard.getByRole('button', { name: w.discardOk }).click();
    await expect(viewer).toHaveCount(0);
    await expect(itemCard(page, `${stem}1`)).toBeVisible();

    // Without changes, Esc closes the viewer at once.
    await itemCard(page, `${stem}1`)
      .getByRole('button', { name: `${stem}1` })
      .click();
    await page.getByTestId('viewer-edit').click();
    await expect(page.getByTestId('edit-form')).toBeVisible();
    await page.getByTestId('viewer-title').click();
    await page.keyboard.press('Escape');
    await expect(viewer).toHaveCount(0);
  });
}

/** The total of one figure as the report screen shows it, for the server's business days. */
async function reportTotal(page: Page, figure: string): Promise<number> {
  const settled = settledReport(page);
  await page.goto('/manage/data-table');
  return reportFigureShown(page, await settled, figure);
}

test('opening a file in the viewer is a view in the data report', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  await newFolderWithFiles(page, `看过-${Date.now()}`, [
    { name: 'SEEN1.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(400, 300) },
  ]);
  await expect(itemCard(page, 'SEEN1')).toBeVisible({ timeout: 30_000 });
  const folder = page.url();
  const before = await reportTotal(page, 'views');
  await page.goto(folder);
  const detail = page.waitForResponse((r) => r.url().includes('/file/detail') && r.ok());
  await itemCard(page, 'SEEN1').getByRole('button', { name: 'SEEN1' }).click();
  await detail;
  await expect(page.getByTestId('viewer-title')).toHaveText('SEEN1');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('file-viewer')).toHaveCount(0);
  expect(await reportTotal(page, 'views')).toBe(before + 1);
});
