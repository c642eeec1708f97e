import fs from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { makeJpeg, makePdf, makeVideo } from '../../server/test/fixtures';
import { apiToken, itemCard, newFolderWithFiles, signIn, snap } from './support';

/**
 * Issue 39 item 6: a share link's visitor plays a video and pages through a PDF as a signed-in
 * user does, sees the file's name, steps with previous / next (← →), and reaches the language
 * switch while the viewer is open; Esc closes the top layer only.
 */

const SHOTS = '/tmp/shots-visitor';
const SIZES = [
  { width: 1440, height: 900 },
  { width: 1366, height: 768 },
];

/** A folder of a video, a 3-page PDF and a picture, shared by a public link: the link's address. */
async function sharedFolder(page: Page, folder: string): Promise<string> {
  await signIn(page);
  await newFolderWithFiles(page, folder, [
    { name: 'runway.mp4', mimeType: 'video/mp4', buffer: makeVideo('mp4', 4) },
    { name: 'lookbook.pdf', mimeType: 'application/pdf', buffer: makePdf(3) },
    { name: 'look.jpg', mimeType: 'image/jpeg', buffer: await makeJpeg(900, 600) },
  ]);
  // The media jobs are done once each has its thumbnail.
  for (const name of ['runway', 'lookbook', 'look'])
    await expect(itemCard(page, name).locator('img')).toBeVisible({ timeout: 60_000 });
  const folderId = Number(new URL(page.url()).pathname.split('/').pop());
  const answer = await page.request.post('/ske-api/v1_0/user/share/produce-random-code', {
    headers: { token: await apiToken(page) },
    data: { needPassword: 0, expireTime: 'none', folderIds: [folderId] },
  });
  expect(answer.ok()).toBe(true);
  return (await answer.json()).result.url as string;
}

async function visitorPage(browser: Browser, url: string, english: boolean) {
  const context = await browser.newContext({ locale: english ? 'en-US' : 'zh-CN' });
  const visitor = await context.newPage();
  visitor.on('pageerror', (error) => console.error(`[page error] ${error.message}`));
  if (english) await visitor.addInitScript(() => window.localStorage.setItem('lang', 'en'));
  await visitor.goto(url);
  return { context, visitor };
}

/** Opens a shared card's viewer, from the folder the link names. */
async function openShared(visitor: Page, folder: string, name: string) {
  const card = (label: string) => visitor.locator(`[data-testid="visit-item"][data-name="${label}"]`);
  if (!(await card(name).isVisible())) await card(folder).getByRole('button', { name: folder }).click();
  await card(name).getByRole('button', { name }).click();
  await expect(visitor.getByTestId('visit-viewer-name')).toHaveText(name);
}

async function expectNoCriticalAxe(visitor: Page, label: string) {
  const results = await new AxeBuilder({ page: visitor })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21aa'])
    .analyze();
  const critical = results.violations.filter((violation) => violation.impact === 'critical');
  const serious = results.violations.filter((violation) => violation.impact === 'serious');
  console.log(
    `[axe] ${label}: ${critical.length} critical, ${serious.reduce((n, v) => n + v.nodes.length, 0)} serious nodes`,
    results.violations.map((v) => `${v.impact} ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  );
  expect(critical.map((v) => v.id)).toEqual([]);
}

/** Screenshots at both sizes; `again` puts back what a resize undoes (a menu open on hover). */
async function shots(visitor: Page, name: string, again?: () => Promise<void>) {
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const size of SIZES) {
    await visitor.setViewportSize(size);
    await again?.();
    await snap(visitor, `${name}-${size.width}`);
    await visitor.screenshot({ path: `${SHOTS}/${name}-${size.width}x${size.height}.png` });
  }
}

for (const english of [false, true]) {
  const lang = english ? 'en' : 'zh';
  test(`a visitor plays the video, pages the PDF and steps through the files (${lang})`, async ({
    page,
    browser,
  }) => {
    // Three media jobs, then two pages at two sizes each: longer than a journey's default minute.
    test.setTimeout(180_000);
    const folder = english ? 'visitor samples' : '访客样片';
    const url = await sharedFolder(page, folder);
    const { context, visitor } = await visitorPage(browser, url, english);
    await visitor
      .locator(`[data-testid="visit-item"][data-name="${folder}"]`)
      .getByRole('button')
      .first()
      .click();
    await expect(visitor.locator('[data-testid="visit-item"][data-name="lookbook"] img')).toBeVisible();
    await shots(visitor, `visit-files-${lang}`);
    await expectNoCriticalAxe(visitor, `visitor files (${lang})`);

    // The PDF, page by page.
    await openShared(visitor, folder, 'lookbook');
    const indicator = visitor.getByTestId('visit-page-indicator');
    await expect(indicator).toHaveText(english ? 'Page 1 of 3' : '第 1 / 3 页');
    await visitor.getByTestId('visit-page-next').click();
    await expect(indicator).toHaveText(english ? 'Page 2 of 3' : '第 2 / 3 页');
    await visitor.keyboard.press('PageDown');
    await expect(indicator).toHaveText(english ? 'Page 3 of 3' : '第 3 / 3 页');
    await expect(visitor.getByTestId('visit-page-next')).toBeDisabled();
    const page3 = visitor.getByRole('img', { name: english ? 'lookbook, page 3' : 'lookbook 第 3 页' });
    await expect.poll(() => page3.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await visitor.getByTestId('visit-page-prev').click();
    await expect(indicator).toHaveText(english ? 'Page 2 of 3' : '第 2 / 3 页');
    await shots(visitor, `visit-pdf-${lang}`);
    await expectNoCriticalAxe(visitor, `visitor PDF viewer (${lang})`);

    // Previous / next step through the folder's files, by buttons and by ← →.
    const name = visitor.getByTestId('visit-viewer-name');
    const position = visitor.getByTestId('visit-viewer-position');
    // The PDF's place in the folder decides which way there is a neighbour.
    const atEnd = ((await position.textContent()) ?? '').startsWith(english ? '3 of' : '第 3 个');
    const [away, back] = atEnd ? (['prev', 'next'] as const) : (['next', 'prev'] as const);
    const [awayKey, backKey] = atEnd ? ['ArrowLeft', 'ArrowRight'] : ['ArrowRight', 'ArrowLeft'];
    await visitor.getByTestId(`visit-viewer-${away}`).click();
    await expect(name).not.toHaveText('lookbook');
    const neighbour = (await name.textContent()) ?? '';
    await visitor.getByTestId(`visit-viewer-${back}`).click();
    await expect(name).toHaveText('lookbook');
    await visitor.keyboard.press(awayKey);
    await expect(name).toHaveText(neighbour);
    await visitor.keyboard.press(backKey);
    await expect(name).toHaveText('lookbook');
    if (atEnd) {
      // At the last file, next says so and stays.
      await visitor.getByTestId('visit-viewer-next').click();
      await expect(visitor.getByTestId('visit-viewer').getByRole('status')).toHaveText(
        english ? 'This is the last file' : '已经是最后一个文件',
      );
      await expect(name).toHaveText('lookbook');
    }

    // The video plays (muted, as autoplay rules allow).
    await visitor.getByTestId('visit-viewer-close').click();
    await openShared(visitor, folder, 'runway');
    const video = visitor.getByTestId('visit-viewer-video');
    await video.evaluate(async (element: HTMLVideoElement) => {
      element.muted = true;
      await element.play();
    });
    await expect
      .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 15_000 })
      .toBeGreaterThan(0.5);
    expect(await video.evaluate((element: HTMLVideoElement) => element.readyState)).toBeGreaterThanOrEqual(2);
    await video.evaluate((element: HTMLVideoElement) => element.pause());
    await shots(visitor, `visit-video-${lang}`);

    // The language switch stays in reach over the viewer; Esc closes its menu first, then the viewer.
    // It opens on hover too: after a resize, the pointer is put back over it.
    const openMenu = () =>
      expect(async () => {
        await visitor.getByTestId('language-switch').hover();
        await expect(visitor.getByRole('menu')).toBeVisible({ timeout: 1_000 });
      }).toPass({ timeout: 10_000 });
    await visitor.getByTestId('language-switch').click();
    await openMenu();
    await shots(visitor, `visit-language-${lang}`, openMenu);
    await visitor.keyboard.press('Escape');
    await expect(visitor.getByRole('menu')).toBeHidden();
    await expect(visitor.getByTestId('visit-viewer')).toBeVisible();
    await visitor.keyboard.press('Escape');
    await expect(visitor.getByTestId('visit-viewer')).toBeHidden();
    await context.close();
  });
}
