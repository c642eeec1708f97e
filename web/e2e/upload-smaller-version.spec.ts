import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { formatSize } from '../src/ui/format';
import { finishUpload, itemCard, newFolderWithFiles, signIn, snapBothSizes } from './support';

const words = {
  zh: {
    folder: '较小副本',
    addVersion: '添加为新版本',
    title: '新副本比当前版本小',
    keep: '保留 1600 × 1200 为当前版本',
    hidden: '已隐藏',
  },
  en: {
    folder: 'Smaller copy',
    addVersion: 'Add as new version',
    title: 'The new copy is smaller than the current version',
    keep: 'Keep 1600 × 1200 as current',
    hidden: 'Hidden',
  },
};

/** A boot on white, drawn differently per language so neither run's copy looks like the other's. */
function boot(lang: 'zh' | 'en', width: number, height: number): Promise<Buffer> {
  const [colour, shift] = lang === 'zh' ? ['#1f6f3a', 0] : ['#6a1b9a', 120];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1200" viewBox="0 0 1600 1200">
    <rect width="1600" height="1200" fill="#ffffff"/>
    <path d="M ${360 + shift} 200 L ${620 + shift} 200 L ${640 + shift} 700 C 900 720 1180 760 1260 880
      L 1270 960 L ${330 + shift} 960 Z" fill="${colour}"/>
    <rect x="${310 + shift}" y="960" width="${980 - shift}" height="90" rx="30" fill="#333333"/>
    <circle cx="${1250 - shift}" cy="300" r="${110 + shift / 4}" fill="#f2b705"/>
  </svg>`;
  return sharp(Buffer.from(svg)).resize(width, height).jpeg({ quality: 90 }).toBuffer();
}

/**
 * Issue 39 item 9 in the upload dialog: a smaller copy flagged as a near-duplicate and added as a
 * new version of a larger file says so with both sizes; keeping the larger current leaves the
 * original in the grid and the viewer, the copy a hidden version in its records.
 */
for (const lang of ['zh', 'en'] as const) {
  test(`a smaller near-duplicate added as a new version may keep the larger current (${lang})`, async ({
    page,
  }) => {
    test.setTimeout(150_000);
    const w = words[lang];
    await page.addInitScript((l) => window.localStorage.setItem('lang', l), lang);
    await signIn(page);
    const name = `BIGBOOT${lang.toUpperCase()}`;
    const copyName = `small-boot-${lang}.jpg`;
    const large = await boot(lang, 1600, 1200);
    const small = await boot(lang, 800, 600);
    await newFolderWithFiles(page, `${w.folder}-${Date.now()}`, [
      { name: `${name}.jpg`, mimeType: 'image/jpeg', buffer: large },
    ]);
    // The thumbnail comes with the server's fingerprint, which the dialog's check looks up.
    await expect(itemCard(page, name).locator('img')).toBeVisible({ timeout: 30_000 });
    await expect(itemCard(page, name)).toContainText(formatSize(large.length));

    await page
      .getByTestId('upload-files-input')
      .setInputFiles({ name: copyName, mimeType: 'image/jpeg', buffer: small });
    const entry = page.locator(`[data-testid="similar-entry"][data-file="${copyName}"]`);
    await expect(entry).toBeVisible({ timeout: 30_000 });
    await entry.getByText(w.addVersion, { exact: true }).click();
    // Another journey's file may look alike too: the original is picked by its name.
    const targets = entry.getByTestId('similar-version-target');
    if (await targets.isVisible()) await targets.getByText(name, { exact: true }).click();
    await expect(entry.getByTestId('similar-version-path')).toContainText(`/${name}.jpg`);
    const warning = entry.getByTestId('smaller-copy-warning');
    await expect(warning).toBeVisible();
    await expect(warning).toContainText(w.title);
    await expect(warning).toContainText('800 × 600');
    await expect(warning).toContainText('1600 × 1200');
    // Keeping the larger is proposed; chosen here as a person would.
    await expect(warning.getByRole('radio', { name: w.keep })).toBeChecked();
    await warning.getByText(w.keep, { exact: true }).click();
    await snapBothSizes(page, `upload-smaller-copy-${lang}`);
    await finishUpload(page);
    const panel = page.getByTestId('upload-panel');
    await expect
      .poll(
        async () => Number(await panel.getByTestId('upload-panel-progress').getAttribute('data-percent')),
        { timeout: 30_000 },
      )
      .toBe(100);

    // The grid: one file, the original's size; no file of the copy's name.
    await expect(async () => {
      await page.reload();
      await expect(itemCard(page, name)).toBeVisible({ timeout: 5_000 });
    }).toPass({ timeout: 30_000 });
    await expect(itemCard(page, `small-boot-${lang}`)).toHaveCount(0);
    await expect(itemCard(page, name)).toContainText(formatSize(large.length));
    await expect(itemCard(page, name)).not.toContainText(formatSize(small.length));

    // The viewer: the original's size, the copy a hidden version in the records.
    await itemCard(page, name).getByRole('button', { name }).click();
    await expect(page.getByTestId('viewer-title')).toHaveText(name);
    await expect(page.getByTestId('info-records').locator('.ant-list-item')).toHaveCount(2, {
      timeout: 30_000,
    });
    await expect(page.getByTestId('info-fields')).toContainText('1600 × 1200');
    await expect(page.getByTestId('info-records')).toContainText(w.hidden);
    await snapBothSizes(page, `upload-smaller-copy-viewer-${lang}`);
  });
}
