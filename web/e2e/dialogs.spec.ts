import { expect, type Page, test } from '@playwright/test';
import { makeJpeg, makeMp4, makePdf, makePng } from '../../server/test/fixtures';
import { finishUpload, itemCard, newFolder, signIn, snap } from './support';

/** The page in the journey's language: the stored choice, as the top-bar switch leaves it. */
const inLanguage = (page: Page, lang: 'zh' | 'en') =>
  page.addInitScript((chosen) => window.localStorage.setItem('lang', chosen), lang);

/** Issue 39 item 11 and drag and drop: the upload dialog fits the window; files dropped upload. */

const SIZES = [
  { width: 1366, height: 768 },
  { width: 1440, height: 900 },
];

const files = async (count: number, prefix: string) =>
  Promise.all(
    Array.from({ length: count }, async (_, i) => ({
      name: `${prefix}${i + 1}.jpg`,
      mimeType: 'image/jpeg',
      buffer: await makeJpeg(320, 240),
    })),
  );

for (const lang of ['zh', 'en'] as const) {
  const words =
    lang === 'zh'
      ? {
          files: '上传文件',
          images: '图片 (3)',
          nine: '图片 (7)',
          videos: '视频',
          others: '其他',
          drop: '松开鼠标',
        }
      : {
          files: 'Upload files',
          images: 'Images (3)',
          nine: 'Images (7)',
          videos: 'Videos',
          others: 'Other files',
          drop: 'Drop files and folders',
        };

  test(`the upload dialog fits the window with 3 and 9 files, without empty groups (${lang})`, async ({
    page,
  }) => {
    await inLanguage(page, lang);
    await signIn(page);
    await newFolder(page, `dialog fit ${lang}`, { open: true });
    for (const size of SIZES) {
      await page.setViewportSize(size);
      // Chosen from the hover menu: the menu closes and does not stay over the dialog.
      await page.getByTestId('upload-button').hover();
      const item = page.getByRole('menuitem').filter({ hasText: words.files }).first();
      await expect(item).toBeVisible();
      const chooser = page.waitForEvent('filechooser');
      await item.click();
      await (await chooser).setFiles(await files(3, 'FIT'));
      const dialog = page.getByRole('dialog');
      await expect(dialog).toContainText(words.images);
      await expect(item).toBeHidden();
      // Only the groups holding files are shown.
      await expect(dialog.getByTestId('upload-groups')).not.toContainText(words.videos);
      await expect(dialog.getByTestId('upload-groups')).not.toContainText(words.others);
      await expect(page.getByTestId('upload-finish')).toBeInViewport({ ratio: 1 });
      await snap(page, `dialogs-upload-3-${lang}-${size.width}`);

      // Six more, of all three kinds: the body scrolls, the buttons stay in the window.
      await dialog
        .locator('input[type=file]')
        .setInputFiles([
          ...(await files(4, 'MORE')),
          { name: 'clip.mp4', mimeType: 'video/mp4', buffer: makeMp4() },
          { name: 'sheet.pdf', mimeType: 'application/pdf', buffer: makePdf() },
        ]);
      await expect(dialog).toContainText(words.nine);
      await expect(dialog.getByTestId('upload-groups')).toContainText(words.videos);
      await expect(page.getByTestId('upload-finish')).toBeInViewport({ ratio: 1 });
      await expect(page.getByTestId('upload-continue')).toBeInViewport({ ratio: 1 });
      await snap(page, `dialogs-upload-9-${lang}-${size.width}`);
      await dialog.getByRole('button', { name: lang === 'zh' ? '取 消' : 'Cancel' }).click();
      await expect(dialog).toBeHidden();
    }
  });

  test(`files and folders dropped on the listing upload into its folder (${lang})`, async ({ page }) => {
    await inLanguage(page, lang);
    await page.setViewportSize(SIZES[0] as { width: number; height: number });
    await signIn(page);
    await newFolder(page, `drop ${lang}`, { open: true });
    const jpeg = (await makeJpeg(400, 300)).toString('base64');
    const png = (await makePng(300, 300)).toString('base64');
    // A file, and a folder holding a file and a folder with a file: entries as a real drop gives them.
    await dropOnListing(page, words.drop, {
      loose: { 'DROP1-01_side.jpg': jpeg },
      folder: { name: `季节${lang}`, jpeg, png },
    });
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(lang === 'zh' ? '图片 (3)' : 'Images (3)');
    await expect(dialog).toContainText(`季节${lang}/Detail/top.png`);
    await expect(dialog).toContainText(`季节${lang}/look.jpg`);
    await expect(page.getByTestId('upload-target')).toHaveText(`/drop ${lang}`);
    await snap(page, `dialogs-dropped-${lang}`);
    await finishUpload(page);
    await expect(itemCard(page, 'DROP1-01_side')).toBeVisible({ timeout: 30_000 });
    await expect(itemCard(page, `季节${lang}`)).toBeVisible();
    await itemCard(page, `季节${lang}`)
      .getByRole('button', { name: `季节${lang}` })
      .click();
    await expect(itemCard(page, 'look')).toBeVisible({ timeout: 30_000 });
    await expect(itemCard(page, 'Detail')).toBeVisible();
  });
}

/**
 * Drags onto the listing and drops: the overlay shows while dragging; the drop carries a file as a
 * DataTransfer built in the page and a folder through the entries API (webkitGetAsEntry) the way
 * Chromium hands a dropped folder, its reader answering in batches until an empty one.
 */
async function dropOnListing(
  page: Page,
  overlayText: string,
  what: { loose: Record<string, string>; folder: { name: string; jpeg: string; png: string } },
) {
  await page.evaluate(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['x'], 'x.jpg', { type: 'image/jpeg' }));
    const target = document.querySelector('[data-testid="item-browser"]') ?? document.body;
    target.dispatchEvent(new DragEvent('dragenter', { bubbles: true, dataTransfer: transfer }));
    target.dispatchEvent(new DragEvent('dragover', { bubbles: true, dataTransfer: transfer }));
  });
  await expect(page.getByTestId('drop-overlay')).toContainText(overlayText);
  await snap(page, `dialogs-drop-overlay-${overlayText.startsWith('松') ? 'zh' : 'en'}`);
  await page.evaluate(({ loose, folder }) => {
    const bytes = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const fileEntry = (name: string, file: File) => ({
      isFile: true,
      isDirectory: false,
      name,
      file: (ok: (f: File) => void) => setTimeout(() => ok(file)),
    });
    const dirEntry = (name: string, children: unknown[]) => ({
      isFile: false,
      isDirectory: true,
      name,
      createReader: () => {
        let done = false;
        return {
          readEntries: (ok: (e: unknown[]) => void) =>
            setTimeout(() => {
              ok(done ? [] : children);
              done = true;
            }),
        };
      },
    });
    const tree = dirEntry(folder.name, [
      fileEntry('look.jpg', new File([bytes(folder.jpeg)], 'look.jpg', { type: 'image/jpeg' })),
      dirEntry('Detail', [
        fileEntry('top.png', new File([bytes(folder.png)], 'top.png', { type: 'image/png' })),
      ]),
    ]);
    const items = [
      ...Object.entries(loose).map(([name, b64]) => {
        const file = new File([bytes(b64)], name, { type: 'image/jpeg' });
        return { kind: 'file', webkitGetAsEntry: () => fileEntry(name, file), getAsFile: () => file };
      }),
      { kind: 'file', webkitGetAsEntry: () => tree, getAsFile: () => null },
    ];
    const drop = new Event('drop', { bubbles: true, cancelable: true });
    Object.defineProperty(drop, 'dataTransfer', { value: { types: ['Files'], items, files: [] } });
    (document.querySelector('[data-testid="item-browser"]') ?? document.body).dispatchEvent(drop);
  }, what);
  await expect(page.getByTestId('drop-overlay')).toBeHidden();
}

test('cards show the whole picture: a 3:1 banner and a portrait page are not cut (issue 39 item 12)', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page);
  await newFolder(page, 'cards fit', { open: true });
  await page.getByTestId('upload-files-input').setInputFiles([
    { name: 'banner.png', mimeType: 'image/png', buffer: await makePng(1500, 500) },
    { name: 'portrait.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(600, 1200) },
  ]);
  await finishUpload(page);
  for (const name of ['banner', 'portrait']) {
    const picture = itemCard(page, name).locator('img');
    await expect(picture).toBeVisible({ timeout: 30_000 });
    await expect(picture).toHaveCSS('object-fit', 'contain');
  }
  await snap(page, 'dialogs-cards-fit');
});
