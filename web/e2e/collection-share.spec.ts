import { expect, type Page, test } from '@playwright/test';
import { makeJpeg, makePdf, makeVideo } from '../../server/test/fixtures';
import { expectAccessible } from './axe';
import { addToCollection } from './colleagues';
import { itemCard, newFolderWithFiles, signIn, snapBothSizes } from './support';

/**
 * Issue 43 item 1: a collection gathered from three folders (a picture, a video, a PDF) is put in
 * order by dragging a card with the keyboard and the mouse (the order outlives a reload), offered for
 * download with the listings' choices, and shared by a live link: a visitor in a browser of their own
 * sees the collection's name and its files, plays the video and pages through the PDF.
 */
const WORDS = {
  zh: {
    add: '加入合集',
    public: '公开',
    pageOne: '第 1 / 2 页',
    picked: (name: string) => `已拿起 ${name}，当前位置第 3 个`,
    over: (name: string, place: number) => `${name} 移到第 ${place} 个位置`,
  },
  en: {
    add: 'Add to collection',
    public: 'Public',
    pageOne: 'Page 1 of 2',
    picked: (name: string) => `Picked up ${name} at place 3`,
    over: (name: string, place: number) => `${name} is over place ${place}`,
  },
} as const;

/** The names of the collection's cards, in the order shown. */
const cardNames = (page: Page) =>
  page.getByTestId('sortable-card').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-name')));

/** The next answer of collection/move. */
const moved = (page: Page) =>
  page.waitForResponse((r) => r.url().includes('/collection/move') && r.request().method() === 'POST');

for (const lang of ['zh', 'en'] as const) {
  test(`a collection of three folders' files, reordered by dragging, downloaded and shared live (${lang})`, async ({
    page,
    browser,
  }) => {
    test.setTimeout(240_000);
    const w = WORDS[lang];
    const stamp = `${lang}${Date.now() % 1_000_000}`;
    const collection = `秋冬发布 ${stamp}`;
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.addInitScript((l) => window.localStorage.setItem('lang', l), lang);
    await signIn(page);

    const [look, runway, lookbook] = ['look', 'runway', 'lookbook'].map((name) => `${name}-${stamp}`) as [
      string,
      string,
      string,
    ];
    const sources = [
      { name: `${look}.jpg`, mimeType: 'image/jpeg', buffer: await makeJpeg(900, 600) },
      { name: `${runway}.mp4`, mimeType: 'video/mp4', buffer: makeVideo('mp4', 4) },
      { name: `${lookbook}.pdf`, mimeType: 'application/pdf', buffer: makePdf(2) },
    ];
    for (const [i, source] of sources.entries()) {
      await newFolderWithFiles(page, `season-${i}-${stamp}`, [source]);
      const name = source.name.replace(/\.[^.]+$/, '');
      // Its media job is done once it has its thumbnail (the video's frame, the PDF's first page).
      await expect(itemCard(page, name).locator('img')).toBeVisible({ timeout: 60_000 });
      await addToCollection(page, name, collection, i === 0, w.add);
    }

    await page.goto('/collections');
    await page
      .locator(`[data-testid="collection-card"][data-collection="${collection}"]`)
      .getByTestId('collection-open')
      .click();
    await expect(page.getByTestId('collection-title')).toHaveText(collection);
    await expect.poll(() => cardNames(page)).toEqual([look, runway, lookbook]);

    // The keyboard: the PDF's grip, Space, two steps left, Space: it leads.
    const grip = (name: string) =>
      page.locator(`[data-testid="sortable-card"][data-name="${name}"]`).getByTestId('drag-handle');
    // Each step waits for what a screen reader hears: a key pressed before the card is measured is lost.
    const heard = page.locator('[id^="DndLiveRegion"]');
    await grip(lookbook).focus();
    await page.keyboard.press('Space');
    await expect(heard).toHaveText(w.picked(lookbook));
    await page.keyboard.press('ArrowLeft');
    await expect(heard).toHaveText(w.over(lookbook, 2));
    await page.keyboard.press('ArrowLeft');
    await expect(heard).toHaveText(w.over(lookbook, 1));
    const keyboardMove = moved(page);
    await page.keyboard.press('Space');
    expect((await keyboardMove).ok()).toBe(true);
    await expect.poll(() => cardNames(page)).toEqual([lookbook, look, runway]);

    // The mouse: the video's card dragged onto the first place.
    const from = await grip(runway).boundingBox();
    const to = await page.locator(`[data-testid="sortable-card"][data-name="${lookbook}"]`).boundingBox();
    if (!from || !to) throw new Error('cards not laid out');
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    const mouseMove = moved(page);
    for (let step = 1; step <= 12; step++)
      await page.mouse.move(
        from.x + ((to.x + to.width / 3 - from.x) * step) / 12,
        from.y + from.height / 2 + ((to.y + 40 - from.y) * step) / 12,
      );
    await page.mouse.up();
    expect((await mouseMove).ok()).toBe(true);
    await expect.poll(() => cardNames(page)).toEqual([runway, lookbook, look]);
    await page.reload();
    await expect.poll(() => cardNames(page)).toEqual([runway, lookbook, look]);
    await snapBothSizes(page, `collection-sortable-${lang}`);
    await expectAccessible(page, `collection page with grips (${lang})`);

    // Download: the listings' choices, for the whole collection.
    await page.getByTestId('collection-download').click();
    await expect(page.getByTestId('collection-download-formats')).toBeVisible();
    await snapBothSizes(page, `collection-download-${lang}`);
    await expectAccessible(page, `collection download dialog (${lang})`);
    const download = page.waitForEvent('download');
    await page.getByTestId('collection-download-submit').click();
    expect((await download).suggestedFilename()).toMatch(/\.zip$/);

    // Share: a public link of the collection.
    await page.getByTestId('collection-share').click();
    await expect(page.getByRole('dialog')).toContainText(collection);
    await page.getByTestId('share-type').getByText(w.public, { exact: true }).click();
    await snapBothSizes(page, `collection-share-form-${lang}`);
    await page.getByTestId('share-create').click();
    const url = await page.getByTestId('share-url').inputValue();
    expect(url).toContain('/visitfile?code=');
    await snapBothSizes(page, `collection-share-${lang}`);
    await expectAccessible(page, `collection share link (${lang})`);
    await page.getByTestId('share-done').click();

    // The visitor, in a browser of their own.
    const context = await browser.newContext({
      locale: lang === 'en' ? 'en-US' : 'zh-CN',
      viewport: { width: 1440, height: 900 },
    });
    const visitor = await context.newPage();
    await visitor.addInitScript((l) => window.localStorage.setItem('lang', l), lang);
    await visitor.goto(url);
    await expect(visitor.getByTestId('visit-collection')).toHaveText(collection);
    const shared = visitor.getByTestId('visit-item');
    await expect
      .poll(() => shared.evaluateAll((cards) => cards.map((c) => c.getAttribute('data-name'))))
      .toEqual([runway, lookbook, look]);
    await expect(visitor.locator(`[data-testid="visit-item"][data-name="${look}"] img`)).toBeVisible();
    await snapBothSizes(visitor, `collection-visitor-${lang}`);
    await expectAccessible(visitor, `collection visitor page (${lang})`);

    const open = async (name: string) => {
      await visitor
        .locator(`[data-testid="visit-item"][data-name="${name}"]`)
        .getByRole('button', { name })
        .click();
      await expect(visitor.getByTestId('visit-viewer-name')).toHaveText(name);
    };
    await open(lookbook);
    await expect(visitor.getByTestId('visit-page-indicator')).toHaveText(w.pageOne);
    await visitor.getByTestId('visit-viewer-close').click();
    await open(runway);
    const video = visitor.getByTestId('visit-viewer-video');
    await video.evaluate(async (element: HTMLVideoElement) => {
      element.muted = true;
      await element.play();
    });
    await expect
      .poll(() => video.evaluate((element: HTMLVideoElement) => element.readyState), { timeout: 15_000 })
      .toBeGreaterThanOrEqual(2);
    await expect
      .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 15_000 })
      .toBeGreaterThan(0);
    await snapBothSizes(visitor, `collection-visitor-video-${lang}`);
    await context.close();
  });
}
