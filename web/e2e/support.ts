import fs from 'node:fs';
import path from 'node:path';
import { expect, type Locator, type Page, type Request, type Response } from '@playwright/test';
import { PEERS_URL } from './peer-ports';

export const ADMIN = { email: 'admin@example.com', password: 'Admin#2026' };
/** The desktop client's download links the journeys' server is configured with. */
export const CLIENT_LINKS = {
  mac: 'https://files.example.com/dam/Archive-2.3.dmg',
  windows: 'https://files.example.com/dam/Archive-2.3.exe',
};
const shots = path.resolve(import.meta.dirname, 'screenshots');

/**
 * Saves a screenshot once Ant Design's animations have settled (web/e2e/screenshots, not committed),
 * for a person to look at. CI's fresh clone is thrown away unread, so there the ~200 screenshots
 * are not taken; the settling wait stays, so a journey's later steps see the page as they do here.
 */
export async function snap(page: Page, name: string): Promise<void> {
  await page.waitForTimeout(400);
  if (process.env.CI === 'true' || process.env.CI === '1') return;
  fs.mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${name}.png`) });
}

/**
 * Screenshots at both window sizes the reviews look at (1440×900 and 1366×768), named
 * `<name>-<width>.png` beside snap's (E2E_SHOTS overrides the folder); the window is put back after.
 * Not in CI, like snap.
 */
export async function snapBothSizes(page: Page, name: string): Promise<void> {
  if (process.env.CI === 'true' || process.env.CI === '1') return;
  const dir = process.env.E2E_SHOTS ?? shots;
  fs.mkdirSync(dir, { recursive: true });
  const size = page.viewportSize();
  for (const [width, height] of [
    [1440, 900],
    [1366, 768],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(400);
    await page.screenshot({ path: path.join(dir, `${name}-${width}.png`) });
  }
  if (size) await page.setViewportSize(size);
}

/**
 * Signs in through the sign-in call, as the sign-in page makes it, keeps the session in the cookie
 * the web app keeps it in, and opens the home page. The sign-in page itself is journeyed through
 * in foundation.spec.ts and account-access.spec.ts; loading it before every journey cost each ~1 s
 * of a two-core machine.
 */
export async function signIn(page: Page, email = ADMIN.email, password = ADMIN.password): Promise<void> {
  // Browser-side failures belong in the test log, where CI shows them.
  page.on('pageerror', (error) => console.error(`[page error] ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') console.error(`[console] ${message.text()}`);
  });
  const response = await page.request.post('/security-api/login', {
    data: { userName: email, password, remember: false },
  });
  const envelope = (await response.json()) as {
    success?: boolean;
    code?: string;
    result?: { token?: string };
  };
  const token = envelope.result?.token;
  if (!envelope.success || !token)
    throw new Error(`sign-in of ${email} refused: ${envelope.code ?? response.status()}`);
  await page.context().addCookies([{ name: 'skToken', value: token, url: new URL(response.url()).origin }]);
  // Where the sign-in page leads: `/`, which is all files (or the forced password change).
  await page.goto('/');
}

/** The signed-in session's token, for the calls a journey makes to set up its data. */
export async function apiToken(page: Page): Promise<string> {
  return (await page.context().cookies()).find((c) => c.name === 'skToken')?.value ?? '';
}

/**
 * Holds each part upload for `ms`, so a journey can see progress or act while transfers are under
 * way: parts PUT to the server (local storage) or to an S3 store's presigned address
 * (E2E_CLUSTER=1). Returns a function that lets the remaining parts go at full speed.
 */
export async function slowParts(page: Page, ms: number): Promise<() => Promise<void>> {
  const isPart = (url: URL) =>
    url.pathname.endsWith('/file-upload/part') || url.searchParams.has('partNumber');
  await page.route(isPart, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue().catch(() => {});
  });
  return () => page.unroute(isPart);
}

/** The pointer to the page's bottom-left corner, off every menu and button. */
const movePointerAway = (page: Page) => page.mouse.move(0, page.viewportSize()?.height ?? 800);

/**
 * Hovers the top bar's user menu, coming from elsewhere each time: a pointer already resting on
 * its button (a try whose menu never opened, seen in CI) sends it no new "enter", and the menu
 * would stay shut however often it is hovered again.
 */
export async function hoverUserMenu(page: Page, options: { timeout?: number } = {}): Promise<void> {
  await movePointerAway(page);
  await page.getByTestId('user-menu').hover(options);
}

/**
 * Chooses an entry of the top bar's user menu and waits until `opened` (what it opens) is there.
 * A hover menu can close while the pointer crosses the gap to it (seen in CI), so the gesture is
 * tried again until it has worked.
 */
export async function chooseUserMenuItem(page: Page, name: string | RegExp, opened: Locator): Promise<void> {
  await expect(async () => {
    if (await opened.isVisible()) return;
    await hoverUserMenu(page, { timeout: 2_000 });
    await page.getByRole('menuitem', { name }).click({ timeout: 2_000 });
    await expect(opened).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 30_000 });
  // A try that hovered again after the screen had come leaves the menu open over it (seen in CI):
  // the pointer leaves, and the menu must be gone before the journey goes on.
  await movePointerAway(page);
  await expect(page.locator('.ant-dropdown:not(.ant-dropdown-hidden)')).toHaveCount(0);
}

/**
 * Picks an option of an Ant Design single select and waits until the select shows it. A click that
 * lands while the list is still opening or closing is lost (seen in CI), so the pick is tried again
 * until the select says it took.
 */
export async function chooseOption(page: Page, select: Locator, option: string | RegExp): Promise<void> {
  await expect(async () => {
    await select.click({ timeout: 2_000 });
    await page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', {
        hasText: option,
      })
      .click({ timeout: 2_000 });
    await expect(select).toContainText(option, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}

export const itemCard = (page: Page, name: string) =>
  page.locator(`[data-testid="item-card"][data-name="${name}"]`);

/**
 * A new folder in the folder on screen, made through the folder dialog; with `open`, the page then
 * goes to it and waits for its own page (and upload target) before going on.
 */
export async function newFolder(page: Page, name: string, { open = false } = {}): Promise<void> {
  await page.getByTestId('new-folder').click();
  const input = page.getByTestId('folder-name-input');
  // The name can be typed at once: the dialog opens with its field focused.
  await expect(input).toBeFocused();
  const creation = (request: Request) =>
    request.url().includes('/file/creat-folder') && request.method() === 'POST';
  // Every create call the page makes, however late: a retry must not follow a slow first call.
  const made: Request[] = [];
  const record = (request: Request) => {
    if (creation(request)) made.push(request);
  };
  page.on('request', record);
  try {
    // A fresh-clone CI run once saw Save clicked and no call made (the form refused to submit), and
    // could not say why: a second try says what the dialog showed then instead of failing blind.
    for (let attempt = 1; made.length === 0; attempt++) {
      await input.fill(name);
      await expect(input).toHaveValue(name);
      await page.getByTestId('folder-dialog-ok').click();
      try {
        await expect.poll(() => made.length, { timeout: 15_000 }).toBeGreaterThan(0);
      } catch (error) {
        if (made.length > 0) break;
        const shown = await page.locator('.ant-modal .ant-form-item-explain-error').allInnerTexts();
        const seen = `name field "${await input.inputValue().catch(() => '(gone)')}", form errors ${JSON.stringify(shown)}`;
        if (attempt === 2)
          throw new Error(`creating folder "${name}": no call made; ${seen}`, { cause: error });
        console.error(`[newFolder] Save made no call for "${name}" (${seen}); trying once more`);
      }
    }
  } finally {
    page.off('request', record);
  }
  const answer = await (made[0] as Request).response();
  if (!answer) throw new Error(`creating folder "${name}": the call got no answer`);
  // A refusal fails here with the server's answer, not later as a folder missing from the list.
  expect(answer.ok(), `creating folder "${name}": ${await answer.text()}`).toBe(true);
  // The dialog closes once the listings have been fetched again: on a busy machine that takes a while.
  await expect(page.getByTestId('folder-name-input')).toBeHidden({ timeout: 30_000 });
  await expect(itemCard(page, name)).toBeVisible();
  if (!open) return;
  await itemCard(page, name).getByRole('button', { name }).click();
  await page.waitForURL(/\/allfiles\/\d+$/);
  await expect(page.getByTestId('current-folder')).toHaveText(name);
}

/** A page in English: the stored language choice, as the top-bar switch leaves it. */
export async function switchToEnglish(page: Page): Promise<void> {
  await page.addInitScript(() => window.localStorage.setItem('lang', 'en'));
}

export interface FileToUpload {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/**
 * A new top-level folder holding these files, uploaded through the upload dialog; leaves the page
 * on that folder. Unknown article numbers (when SKU data is loaded) are confirmed.
 */
export async function newFolderWithFiles(
  page: Page,
  folder: string,
  /** Files made in the test, or paths of files on disk (large ones: the browser reads them there). */
  files: FileToUpload[] | string[],
): Promise<void> {
  await page.goto('/allfiles/all');
  await newFolder(page, folder, { open: true });
  await page.getByText(/这个文件夹还是空的|This folder is empty/).waitFor();
  await page.getByTestId('upload-files-input').setInputFiles(files);
  await finishUpload(page);
}

/**
 * Starts the upload in the open upload dialog and waits for the dialog to close. The dialog checks
 * the article numbers against the SKU data 500 ms after they change; when that answer comes before
 * the click and names one unknown (SKU data loaded by an earlier journey), the upload first asks
 * "upload anyway?", which is confirmed here: whether it asks depends on timing, not on the journey.
 */
export async function finishUpload(page: Page): Promise<void> {
  const finish = page.getByTestId('upload-finish');
  await expect(finish).toBeVisible();
  await finish.click();
  const anyway = page.getByRole('button', { name: /仍然上传|Upload anyway/ });
  await expect(async () => {
    if (await anyway.isVisible()) await anyway.click();
    await expect(finish).toBeHidden({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
}

/**
 * Waits until the upload panel says all `count` files are uploaded. A journey that ends while its
 * uploads are still running leaves them "interrupted" on the server for the administrator, and
 * every later journey that expects no interrupted-uploads banner fails (CI, stop 45: 7 such uploads
 * from the bulk-upload journeys failed five journeys after them).
 */
export async function uploadsFinished(page: Page, count: number): Promise<void> {
  await expect(page.getByTestId('upload-panel-title')).toHaveText(
    new RegExp(`^(已上传 ${count} 个文件|Files uploaded: ${count})$`),
    { timeout: 60_000 },
  );
}

/**
 * What the search box shows of a pasted batch: the chips shown whole (hidden ones are measured out
 * of view, aria-hidden), how many of those are cut at the box's edge, and the "+N" count.
 */
export async function batchChips(page: Page): Promise<{ shown: number; clipped: number; more: number }> {
  return page.getByTestId('search-batch-summary').evaluate((box) => {
    const edge = box.getBoundingClientRect().right;
    const shown = [...box.querySelectorAll('.ant-tag')].filter((tag) => !tag.closest('[aria-hidden="true"]'));
    return {
      shown: shown.length,
      clipped: shown.filter(
        (tag) => tag.scrollWidth > tag.clientWidth || tag.getBoundingClientRect().right > edge,
      ).length,
      more: Number((box.querySelector('[data-testid="search-batch-more"]')?.textContent ?? '+0').slice(1)),
    };
  });
}

/** A mail as the journeys' SMTP server received it (inline pictures put into the HTML). */
export interface ReceivedMail {
  subject: string;
  text: string;
  html: string;
  inlinePictures: number;
}

/** The last mail the journeys' SMTP server received for `to`, waiting for it to come. */
export async function lastMailTo(page: Page, to: string, timeout = 15_000): Promise<ReceivedMail> {
  let mail: ReceivedMail = { subject: '', text: '', html: '', inlinePictures: 0 };
  await expect(async () => {
    const answer = await page.request.get(`${PEERS_URL}/mail/last?to=${encodeURIComponent(to)}`);
    expect(answer.ok()).toBe(true);
    mail = await answer.json();
  }).toPass({ timeout });
  return mail;
}

/**
 * The data report's answer for the server's business days (`/manage/data-table`): the screen asks
 * first with the browser's date and again when the server's "today" differs (a UTC browser after
 * 16:00 UTC is a day behind Shanghai), and the first answer may be on screen for a moment (CI,
 * 2026-12-07 18:55 UTC: 0 views read before, 32 after). Start waiting before what makes the screen ask.
 */
export function settledReport(page: Page) {
  return page.waitForResponse(async (r) => {
    if (!r.url().includes('/data-report/query') || r.request().method() !== 'POST') return false;
    const asked = JSON.parse(r.request().postData() ?? '{}') as { endDate?: string };
    const result = ((await r.json()) as { result?: { today?: string } }).result;
    return result?.today !== undefined && result.today === asked.endDate;
  });
}

/** A figure of the settled report, once the screen shows it. */
export async function reportFigureShown(page: Page, answer: Response, figure: string): Promise<number> {
  const { totals } = ((await answer.json()) as { result: { totals: Record<string, number> } }).result;
  const cell = page.getByTestId(`report-total-${figure}`);
  await expect
    .poll(async () => Number(((await cell.textContent()) ?? '').replace(/,/g, '')))
    .toBe(totals[figure]);
  return totals[figure] as number;
}
