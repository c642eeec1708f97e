import { expect, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { makeJpeg } from '../../server/test/fixtures';
import { expectAccessible } from './axe';
import { apiToken, finishUpload, itemCard, newFolder, signIn, snapBothSizes } from './support';

/**
 * Issue 39 items 4 and 5, in Chinese and English: files named `_正面` and `_侧面` make an article
 * 100 % complete when the expectation asks for those two views, and fill a template's 正面 and 侧面
 * slots; the template's slots without a label are named by what they hold (第 9 张图片 / Image 9,
 * 细节 图片 1) in the plan's "missing" column and the editor's preview, never by a block id. The
 * template editor's labels are tied to their inputs (axe). Screens at 1440×900 and 1366×768.
 */

const run = () => `${Date.now() % 1_000_000}${Math.floor(Math.random() * 90) + 10}`;
const BLOCK_IDS = /oqpx7z|k2m9aa|x1y2z3|g7h8j9/;

async function post(page: Page, path: string, data: unknown) {
  const answer = await page.request.post(`/ske-api/v1_0${path}`, {
    headers: { token: await apiToken(page) },
    data,
  });
  expect(answer.ok(), await answer.text()).toBe(true);
  return (await answer.json()).result;
}

async function importSeason(page: Page, season: string, artNums: string[]) {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('SKU');
  sheet.addRow(['货号', '名称', '季节', '品类']);
  for (const artNum of artNums) sheet.addRow([artNum, `跑鞋 ${artNum}`, season, '跑步']);
  const answer = await page.request.post('/ske-api/v1_0/sku/import', {
    headers: { token: await apiToken(page) },
    multipart: {
      file: {
        name: 'sku.xlsx',
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        buffer: Buffer.from(await workbook.xlsx.writeBuffer()),
      },
    },
  });
  expect(answer.ok(), await answer.text()).toBe(true);
}

for (const lang of ['zh', 'en'] as const) {
  test(`_正面 and _侧面 files complete an article and fill a template named by what it holds (${lang})`, async ({
    page,
  }) => {
    test.slow();
    const en = lang === 'en';
    // The stored language choice, as the top-bar switch leaves it (support's switchToEnglish).
    if (en) await page.addInitScript(() => window.localStorage.setItem('lang', 'en'));
    await page.setViewportSize({ width: 1440, height: 900 });
    const id = run();
    const season = `27SS-${id}`;
    const full = `VCA${id}-01`;
    const half = `VCB${id}-01`;
    await signIn(page);
    await importSeason(page, season, [full, half]);
    await post(page, '/manage/completeness/config', {
      views: [
        { name: '正面', code: '正面', formats: ['jpg'] },
        { name: '侧面', code: '侧面', formats: ['jpg'] },
      ],
      defaultFolderId: null,
    });
    const jpeg = async (name: string) => ({ name, mimeType: 'image/jpeg', buffer: await makeJpeg(640, 640) });
    await page.goto('/allfiles/all');
    await newFolder(page, `视角 ${id}`, { open: true });
    await page
      .getByTestId('upload-files-input')
      .setInputFiles([
        await jpeg(`${full}_正面.jpg`),
        await jpeg(`${full}_侧面2.jpg`),
        await jpeg(`${half}_正面.jpg`),
      ]);
    // Each entry's article number read from its name before the upload starts.
    for (const [name, artNum] of [
      [`${full}_正面.jpg`, full],
      [`${full}_侧面2.jpg`, full],
      [`${half}_正面.jpg`, half],
    ] as const)
      await expect(
        page
          .getByRole('dialog')
          .getByRole('listitem')
          .filter({ hasText: name })
          .getByPlaceholder(/货号|Article number/),
      ).toHaveValue(artNum, { timeout: 15_000 });
    await finishUpload(page);
    for (const name of [`${full}_正面`, `${full}_侧面2`, `${half}_正面`])
      await expect(itemCard(page, name)).toBeVisible({ timeout: 30_000 });

    // Completeness: the article with both views is 100 %, the other 50 %.
    // The report is read when the screen opens: opened again until the uploads' work has finished.
    await expect(async () => {
      await page.goto('/manage/completeness');
      await expect(page.getByTestId('completeness-seasons')).toContainText(season);
      await expect(page.getByTestId(`cell-${full}-正面-jpg`)).toHaveAttribute('data-state', 'present', {
        timeout: 3_000,
      });
    }).toPass({ timeout: 60_000 });
    await expect(page.getByTestId(`cell-${full}-侧面-jpg`)).toHaveAttribute('data-state', 'present');
    await expect(page.getByTestId(`cell-${half}-侧面-jpg`)).toHaveAttribute('data-state', 'missing');
    await expect(page.getByTestId(`progress-${full}`)).toHaveAttribute('aria-valuenow', '100');
    await expect(page.getByTestId(`progress-${half}`)).toHaveAttribute('aria-valuenow', '50');
    await snapBothSizes(page, `completeness-${lang}`);

    // A template whose blocks have no labels (ids as the editor makes them).
    const template = await post(page, '/template/save', {
      name: `视角模板 ${id}`,
      status: 1,
      spec: {
        width: 790,
        background: '#ffffff',
        blocks: [
          { id: 'oqpx7z', type: 'image', rule: { kind: 'view', code: '正面' }, height: 300 },
          { id: 'k2m9aa', type: 'image', rule: { kind: 'view', code: '侧面' }, height: 300 },
          { id: 'x1y2z3', type: 'image', rule: { kind: 'nth', n: 9 }, height: 200 },
          {
            id: 'g7h8j9',
            type: 'grid',
            columns: 2,
            cells: [
              { kind: 'view', code: 'detail' },
              { kind: 'view', code: 'detail' },
            ],
          },
        ],
        output: {},
      },
    });

    // The plan: the 正面 and 侧面 slots are filled, the others named by what they hold.
    await page.goto('/composite');
    await page
      .getByTestId('template-card')
      .filter({ hasText: `视角模板 ${id}` })
      .click();
    await page.getByTestId('compose-art-nums').fill(full);
    await page.getByTestId('compose-check').click();
    const row = page.getByTestId('compose-plan').locator(`tr[data-row-key="${full}"]`);
    await expect(row.getByTestId('plan-missing')).toHaveCount(1);
    const missing = row.locator('.ant-tag');
    await expect(missing).toHaveText(
      en ? ['Image 9', 'detail', 'detail'] : ['第 9 张图片', 'detail', 'detail'],
    );
    await expect(row).not.toContainText(BLOCK_IDS);
    await row.getByRole('button').first().click();
    await expect(page.getByTestId('article-slots').getByTestId('article-slot')).toHaveText(
      en
        ? [/^正面 image/, /^侧面 image/, /^Image 9/, /^Detail image 1/, /^Detail image 2/]
        : [/^正面 图片/, /^侧面 图片/, /^第 9 张图片/, /^detail 图片 1/, /^detail 图片 2/],
    );
    await snapBothSizes(page, `template-plan-${lang}`);

    // The editor's live preview names the empty slots the same way; its labels name their inputs.
    await page.goto(`/templates/${template.id}`);
    const preview = page.getByTestId('page-preview');
    await expect(preview).toContainText(en ? 'Image 9' : '第 9 张图片');
    await expect(preview).toContainText(en ? 'Detail image 2' : 'detail 图片 2');
    await expect(preview).not.toContainText(BLOCK_IDS);
    await page.getByTestId('block-row').first().click();
    const labelInput = page.getByTestId('block-label');
    await expect(labelInput).toHaveAttribute('id', /^tpl-/);
    const inputId = await labelInput.getAttribute('id');
    await expect(page.locator(`label[for="${inputId}"]`)).toBeVisible();
    await expect(page.locator('label[for="tpl-name"]')).toBeVisible();
    await expect(page.locator('#tpl-name')).toHaveAttribute('data-testid', 'template-name');
    await expectAccessible(page, `template editor (${lang})`);
    await snapBothSizes(page, `template-editor-${lang}`);
  });
}
