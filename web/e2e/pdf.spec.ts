import { expect, type Page, test } from '@playwright/test';
import { makePdf } from '../../server/test/fixtures';
import { itemCard, newFolderWithFiles, signIn, snap, switchToEnglish } from './support';

/** The colour at the centre of the page image on screen, read back through a canvas. */
async function centreColour(page: Page, alt: string) {
  const image = page.getByRole('img', { name: alt });
  await expect(image).toBeVisible();
  await expect
    .poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth))
    .toBeGreaterThan(0);
  return image.evaluate((element: HTMLImageElement) => {
    const canvas = document.createElement('canvas');
    canvas.width = element.naturalWidth;
    canvas.height = element.naturalHeight;
    const context = canvas.getContext('2d') as CanvasRenderingContext2D;
    context.drawImage(element, 0, 0);
    const [r = 0, g = 0, b = 0] = context.getImageData(canvas.width / 2, canvas.height / 2, 1, 1).data;
    return { r, g, b };
  });
}

async function openCatalogue(page: Page, name: string) {
  await expect(itemCard(page, name).locator('img')).toBeVisible({ timeout: 30_000 });
  await itemCard(page, name).getByRole('button', { name }).click();
  await expect(page.getByTestId('page-bar')).toBeVisible();
}

test('a PDF catalogue reads page by page in the viewer', async ({ page }) => {
  await signIn(page);
  await newFolderWithFiles(page, '画册', [
    { name: '秋冬画册.pdf', mimeType: 'application/pdf', buffer: makePdf(5) },
  ]);
  await openCatalogue(page, '秋冬画册');
  await expect(page.getByTestId('page-indicator')).toHaveText('/ 5 页');
  await expect(page.getByTestId('info-pages')).toHaveText('5');
  // Page 1 is blue.
  const first = await centreColour(page, '秋冬画册 第 1 页');
  expect(first.b).toBeGreaterThan(first.r);
  await page.getByTestId('page-next').click();
  await page.getByTestId('page-next').click();
  await expect(page.getByTestId('page-input')).toHaveValue('3');
  // Page 3 is green.
  const third = await centreColour(page, '秋冬画册 第 3 页');
  expect(third.g).toBeGreaterThan(third.r + 60);
  expect(third.g).toBeGreaterThan(third.b + 60);
  await snap(page, 'pdf-viewer-page3-zh');
  // Zoom works on the page as on any image; PageDown turns the page.
  await page.getByTestId('zoom-in').click();
  await expect(page.getByRole('img', { name: '秋冬画册 第 3 页' })).toHaveAttribute('data-zoom', '1.1');
  await page.keyboard.press('PageDown');
  await expect(page.getByTestId('page-input')).toHaveValue('4');
  // Typing a page number jumps to it.
  await page.getByTestId('page-input').fill('2');
  await expect(page.getByRole('img', { name: '秋冬画册 第 2 页' })).toBeVisible();
});

test('a PDF reads page by page, in English', async ({ page }) => {
  await switchToEnglish(page);
  await signIn(page);
  await newFolderWithFiles(page, 'catalogues', [
    { name: 'lookbook.pdf', mimeType: 'application/pdf', buffer: makePdf(4) },
  ]);
  await openCatalogue(page, 'lookbook');
  await expect(page.getByTestId('page-indicator')).toHaveText('of 4');
  await page.getByTestId('page-next').click();
  await page.getByTestId('page-next').click();
  await expect(page.getByRole('img', { name: 'lookbook, page 3' })).toBeVisible();
  await snap(page, 'pdf-viewer-page3-en');
});
