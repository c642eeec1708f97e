import { randomInt } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { expectAccessible } from './axe';
import { itemCard, newFolderWithFiles, signIn, snapBothSizes, switchToEnglish } from './support';

/**
 * The jobs screen (issue 40 item 4), as an administrator: a file's source object is taken away, its
 * previews are regenerated from the screen, the media job fails (the journeys' server retries media
 * jobs at once: MEDIA_RETRY_DELAY_SECONDS=0) and shows with its error and file; the object is put
 * back, the job retried from the screen, and the queue's failures go back to none.
 */

/** The stored object with exactly these bytes, under the server's data directory (local storage). */
function objectWithBytes(bytes: Buffer): string {
  const root = path.join(process.env.E2E_DATA_DIR as string, 'objects');
  const walk = (dir: string): string | null => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name === 'previews') continue;
        const found = walk(full);
        if (found) return found;
      } else if (fs.statSync(full).size === bytes.length && fs.readFileSync(full).equals(bytes)) return full;
    }
    return null;
  };
  const found = walk(root);
  if (!found) throw new Error('the uploaded object was not found');
  return found;
}

async function journey(page: Page, lang: 'zh' | 'en') {
  test.setTimeout(120_000);
  if (lang === 'en') await switchToEnglish(page);
  await signIn(page);
  const folder = `jobs-${lang}-${Date.now()}`;
  const name = `JOBFAIL-${lang}-${Date.now()}`;
  // Bytes no other journey uploads (the object is found by them): a colour drawn at random. A
  // random height alone once drew 240, and the 320×240 gradient of the completeness journey was
  // taken aside instead (CI, session 40).
  const bytes = await sharp({
    create: {
      width: 320,
      height: 240,
      channels: 3,
      background: { r: randomInt(256), g: randomInt(256), b: randomInt(256) },
    },
  })
    .jpeg()
    .toBuffer();
  await newFolderWithFiles(page, folder, [{ name: `${name}.jpg`, mimeType: 'image/jpeg', buffer: bytes }]);
  await expect(itemCard(page, name)).toBeVisible();
  const object = objectWithBytes(bytes);
  const aside = `${object}.aside`;
  fs.renameSync(object, aside);

  await page.goto('/manage/jobs');
  await expect(page.getByTestId('jobs-page')).toBeVisible();
  // The back-fills' progress: the embedded metadata's beside the fingerprints' (issue 42).
  await expect(page.getByTestId('backfill-fingerprints')).toBeVisible();
  await expect(page.getByTestId('backfill-metadata')).toContainText(
    lang === 'zh' ? '嵌入元数据' : 'Embedded metadata',
  );
  await expect(page.getByTestId('backfill-metadata')).toContainText(/\d+ \/ \d+/);
  const media = page.getByTestId('queue-media');
  await expect(media).toBeVisible();
  const failedBefore = Number((await media.locator('td').nth(4).textContent()) ?? 0);

  // Regenerate this file's previews: its media job fails, its source being gone.
  await page.getByTestId('jobs-regenerate').click();
  const dialog = page.getByTestId('regenerate-dialog');
  await dialog.getByTestId('regenerate-file').click();
  await page.keyboard.type(name);
  await page.locator('.ant-select-item-option', { hasText: name }).click();
  await dialog.getByTestId('regenerate-file-go').click();
  await expect(page.getByText(lang === 'zh' ? /已加入 1 个任务/ : /1 job queued/)).toBeVisible();
  await expect(media.locator('td').nth(4)).toHaveText(String(failedBefore + 1), { timeout: 20_000 });

  // Open the queue's failures: the file and the error.
  await media.locator('.ant-table-row-expand-icon').click();
  const row = page.getByTestId('failed-jobs-media').locator('tr', { hasText: name });
  await expect(row).toBeVisible();
  await expect(row.getByTestId('failed-job-error')).toHaveText(/ENOENT|no such file|not found/i);
  const completedBefore = Number((await media.locator('td').nth(5).textContent()) ?? 0);
  await snapBothSizes(page, `jobs-failed-${lang}`);
  await expectAccessible(page, `jobs screen (${lang})`);

  // The cause fixed, retry it: it runs and is done, the failure gone.
  fs.renameSync(aside, object);
  await row.getByTestId('failed-job-retry').click();
  await expect(row).toBeHidden({ timeout: 20_000 });
  await expect(media.locator('td').nth(4)).toHaveText(String(failedBefore), { timeout: 20_000 });
  await expect(media.locator('td').nth(5)).toHaveText(String(completedBefore + 1), { timeout: 20_000 });
  await expect(media.locator('td').nth(3)).toHaveText('0');
  await snapBothSizes(page, `jobs-retried-${lang}`);
}

test('an administrator sees a failed media job with its error, retries it and sees it done (zh)', async ({
  page,
}) => {
  await journey(page, 'zh');
});

test('an administrator sees a failed media job with its error, retries it and sees it done (en)', async ({
  page,
}) => {
  await journey(page, 'en');
});
