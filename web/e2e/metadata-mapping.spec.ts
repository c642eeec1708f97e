import { expect, type Page, test } from '@playwright/test';
import { writeWithExiftool } from '../../server/test/exiftool-cli';
import { makeJpeg } from '../../server/test/fixtures';
import { expectAccessible } from './axe';
import { apiToken, chooseOption, itemCard, newFolderWithFiles, signIn, snapBothSizes } from './support';

/**
 * Issue 42: a tag manager maps embedded keywords to tag dimensions on the "metadata mapping" screen;
 * JPEGs whose keywords Debian's ExifTool wrote are uploaded, and the viewer shows the tags the
 * keywords became, and what was not applied: a keyword no tag matches, a tag whose superior tag the
 * file lacks. Names carry the run's stamp (映射…): other journeys share the database, and the rules
 * are deleted at the end (they apply to every upload).
 */
const WORDS = {
  zh: {
    tab: '元数据映射',
    duplicate: '已有把该元数据字段映射到这个标签维度的规则',
    unmatched: (value: string, dimensions: RegExp) =>
      new RegExp(`^(${dimensions.source}) 中没有标签“${value}”（关键词）$`),
    parent: (value: string, parent: string) => `关键词 ${value} 未应用：需要同时有上级标签 ${parent}`,
  },
  en: {
    tab: 'Metadata mapping',
    duplicate: 'There is already a rule mapping this metadata field to this tag dimension',
    unmatched: (value: string, dimensions: RegExp) =>
      new RegExp(`^No tag '${value}' in dimension (${dimensions.source}) \\(Keyword\\)$`),
    parent: (value: string, parent: string) =>
      `Keyword ${value} not applied: it needs its superior tag ${parent}`,
  },
} as const;

async function saveDimension(page: Page, token: string, body: Record<string, unknown>) {
  const saved = await page.request.post('/ske-api/v1_0/manage/update-tag', {
    headers: { token },
    data: body,
  });
  expect(saved.ok(), await saved.text()).toBe(true);
  return (await saved.json()).result as { id: number; tagDTOList: Array<{ id: number; tagName: string }> };
}

async function addRule(page: Page, dimension: string) {
  await page.getByTestId('mapping-rule-new').click();
  await chooseOption(page, page.getByTestId('mapping-rule-dimension'), dimension);
  await page.getByTestId('mapping-rule-save').click();
}

const jpegWithKeywords = async (keywords: string[]) =>
  writeWithExiftool(
    await makeJpeg(800, 600),
    'jpg',
    keywords.map((k) => `-XMP-dc:Subject=${k}`),
  );

for (const lang of ['zh', 'en'] as const) {
  test(`keywords become tags at upload; what is not applied shows in the viewer (${lang})`, async ({
    page,
  }) => {
    test.setTimeout(180_000);
    const w = WORDS[lang];
    const stamp = `${lang}${Date.now() % 1_000_000}`;
    const colour = `映射颜色${stamp}`;
    const family = `映射大类${stamp}`;
    const kind = `映射小类${stamp}`;
    const blue = `映射蓝${stamp}`;
    const shoe = `映射鞋${stamp}`;
    const runner = `映射跑鞋${stamp}`;
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.addInitScript((l) => window.localStorage.setItem('lang', l), lang);
    await signIn(page);
    const token = await apiToken(page);
    await saveDimension(page, token, { dimensionName: colour, tagDTOList: [{ tagName: blue }] });
    const parent = await saveDimension(page, token, {
      dimensionName: family,
      tagDTOList: [{ tagName: shoe }],
    });
    await saveDimension(page, token, {
      dimensionName: kind,
      parentDimensionId: parent.id,
      tagDTOList: [{ tagName: runner, parentTagId: parent.tagDTOList[0]?.id }],
    });

    // The rules, on the new tab of the admin area.
    await page.goto('/manage/tag');
    await page.getByTestId('manage-tabs').getByText(w.tab).click();
    await expect(page).toHaveURL(/\/manage\/metadata-mapping$/);
    await addRule(page, colour);
    const rules = page.getByTestId('mapping-rules');
    await expect(rules.getByRole('cell', { name: colour })).toBeVisible();
    // One rule per field and dimension: the second is refused under the field, in the language.
    await addRule(page, colour);
    await expect(page.getByRole('dialog').getByText(w.duplicate)).toBeVisible();
    await chooseOption(page, page.getByTestId('mapping-rule-dimension'), kind);
    await page.getByTestId('mapping-rule-save').click();
    await expect(rules.getByRole('cell', { name: kind })).toBeVisible();

    // Two photographs: one with a keyword of the colour dimension and one no tag matches; one with a
    // keyword whose tag needs a superior tag the file does not have.
    const first = `MAP1${stamp}`;
    const second = `MAP2${stamp}`;
    await newFolderWithFiles(page, `映射-${stamp}`, [
      {
        name: `${first}.jpg`,
        mimeType: 'image/jpeg',
        buffer: await jpegWithKeywords([blue, `映射无${stamp}`]),
      },
      { name: `${second}.jpg`, mimeType: 'image/jpeg', buffer: await jpegWithKeywords([runner]) },
    ]);
    // The thumbnail is stored after the metadata and its mapping.
    await expect(itemCard(page, first).locator('img')).toBeVisible({ timeout: 60_000 });
    await expect(itemCard(page, second).locator('img')).toBeVisible({ timeout: 60_000 });

    await itemCard(page, first).getByRole('button', { name: first }).click();
    await expect(page.getByTestId('file-tags')).toContainText(blue);
    const section = page.getByTestId('metadata-section');
    // Unmatched: no dimension keywords map to has the tag (both rules' dimensions are named).
    const unmatched = section.getByTestId('mapping-finding');
    await expect(unmatched).toHaveCount(1);
    await expect(unmatched).toHaveText(
      w.unmatched(`映射无${stamp}`, new RegExp(`.*(${colour}.*${kind}|${kind}.*${colour}).*`)),
    );
    await page.keyboard.press('Escape');

    await itemCard(page, second).getByRole('button', { name: second }).click();
    await expect(page.getByTestId('viewer-title')).toHaveText(second);
    await expect(section.getByTestId('mapping-finding')).toHaveText([w.parent(runner, shoe)]);
    await expect(page.getByTestId('file-tags')).toHaveCount(0);
    await page.mouse.move(0, 0);
    await page.waitForLoadState('networkidle');
    await expectAccessible(page, `${lang} viewer with metadata not applied`);
    await section.getByTestId('mapping-findings-of-file').scrollIntoViewIfNeeded();
    await snapBothSizes(page, `metadata-mapping-viewer-${lang}`);

    // The admin screen lists them, newest first, with the file's name.
    await page.goto('/manage/metadata-mapping');
    const findings = page.getByTestId('mapping-findings');
    await expect(findings.getByRole('row', { name: new RegExp(second) }).first()).toContainText(
      w.parent(runner, shoe),
    );
    await page.waitForLoadState('networkidle');
    await expectAccessible(page, `${lang} metadata mapping screen`);
    await snapBothSizes(page, `metadata-mapping-${lang}`);

    // The rules go again: they would apply to every other journey's uploads.
    for (const dimension of [colour, kind]) {
      await rules
        .getByRole('row', { name: new RegExp(dimension) })
        .getByTestId('mapping-rule-delete')
        .click();
      // Ant Design spaces two-character Chinese button words (删 除): the confirm's danger button.
      await page.locator('.ant-popconfirm-buttons .ant-btn-dangerous').click();
      await expect(rules.getByRole('cell', { name: dimension })).toHaveCount(0);
    }
  });
}
