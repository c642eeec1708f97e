import { expect, test } from '@playwright/test';
import { writeWithExiftool } from '../../server/test/exiftool-cli';
import { makeJpeg, makePng } from '../../server/test/fixtures';
import { expectAccessible } from './axe';
import { itemCard, newFolderWithFiles, signIn, snapBothSizes } from './support';

/**
 * Issue 42: a photographer's JPEG, its EXIF, IPTC and XMP written by Debian's own ExifTool (not the
 * copy the platform reads with), uploaded and opened in the viewer: the info panel's "metadata"
 * section, open at first, shows what was written. In Chinese the capture time's offset is written;
 * in English it is not, and the reader tells it from the GPS position (a file with neither says
 * "zone unknown": MetadataSection.test.tsx).
 */
const LANGUAGES = {
  zh: {
    folder: '元数据',
    title: '元数据',
    offset: ['-OffsetTimeOriginal=+08:00'],
    taken: '2026-05-04 10:20:30 (UTC+08:00)',
    label: '红色',
    stars: '4 星',
    copy: '复制',
    empty: '没有内嵌的元数据',
    // Ant Design's own words (its locale).
    more: '展开',
    less: '收起',
  },
  en: {
    folder: 'Metadata',
    title: 'Metadata',
    offset: [],
    taken: '2026-05-04 10:20:30 (UTC+08:00)',
    label: 'Red',
    stars: '4 stars',
    copy: 'Copy',
    empty: 'No embedded metadata',
    more: 'Expand',
    less: 'Collapse',
  },
} as const;

/** Longer than the three lines the section shows before "more". */
const DESCRIPTION =
  '白色跑鞋，春季新品主图。White running shoe, spring launch hero shot, shot on a grey sweep in the studio. ' +
  'Retouched: dust, laces, sole edge. For the spring catalogue, the web shop and the stores’ screens.';

for (const lang of ['zh', 'en'] as const) {
  test(`the viewer's metadata section shows what the file carries (${lang})`, async ({ page }) => {
    test.setTimeout(120_000);
    const w = LANGUAGES[lang];
    const name = `META${lang.toUpperCase()}`;
    const bytes = await writeWithExiftool(await makeJpeg(1200, 800), 'jpg', [
      '-Make=Canon',
      '-Model=Canon EOS R5',
      '-LensModel=RF24-70mm F2.8 L IS USM',
      '-DateTimeOriginal=2026:05:04 10:20:30',
      ...w.offset,
      '-GPSLatitude=31.2304',
      '-GPSLatitudeRef=N',
      '-GPSLongitude=121.4737',
      '-GPSLongitudeRef=E',
      '-XMP-dc:Title=春季新品 Spring',
      `-XMP-dc:Description=${DESCRIPTION}`,
      '-XMP-dc:Creator=张三',
      '-XMP-dc:Rights=© 2026 Brand',
      '-XMP-xmpRights:UsageTerms=仅限电商使用 / e-commerce only',
      '-XMP-dc:Subject=跑鞋',
      '-XMP-dc:Subject=white',
      '-XMP-dc:Subject=SS26',
      '-XMP-xmp:Rating=4',
      '-XMP-xmp:Label=Red',
    ]);
    await page.addInitScript((l) => window.localStorage.setItem('lang', l), lang);
    await signIn(page);
    await newFolderWithFiles(page, `${w.folder}-${Date.now()}`, [
      { name: `${name}.jpg`, mimeType: 'image/jpeg', buffer: bytes },
      // A second format of the same file, with nothing written into it.
      { name: `${name}.png`, mimeType: 'image/png', buffer: await makePng(600, 400) },
    ]);
    await expect(itemCard(page, name)).toBeVisible({ timeout: 30_000 });
    await itemCard(page, name).getByRole('button', { name }).click();
    await expect(page.getByTestId('viewer-title')).toHaveText(name);
    await expect(page.getByTestId('info-formats')).toHaveText(/^(JPG,PNG|PNG,JPG)$/);

    // Open at first, no click: read by the media job a moment after the upload (the section looks again).
    const section = page.getByTestId('metadata-section');
    await expect(section.getByRole('button', { name: w.title })).toHaveAttribute('aria-expanded', 'true');
    // Each format was read on its own: the one that carries something is shown first, whichever is newer.
    await expect(section.getByTestId('metadata-camera')).toHaveText('Canon EOS R5', { timeout: 30_000 });
    const formats = section.getByTestId('metadata-formats');
    await formats.getByText('PNG', { exact: true }).click();
    await expect(section.getByTestId('metadata-empty')).toHaveText(w.empty);
    await expect(section.getByTestId('metadata-camera')).toHaveCount(0);
    await formats.getByText('JPG', { exact: true }).click();
    await expect(section.getByTestId('metadata-camera')).toHaveText('Canon EOS R5');
    await expect(section.getByTestId('metadata-lens')).toHaveText('RF24-70mm F2.8 L IS USM');
    await expect(section.getByTestId('metadata-creator')).toHaveText('张三');
    await expect(section.getByTestId('metadata-copyright')).toHaveText('© 2026 Brand');
    await expect(section.getByTestId('metadata-title')).toHaveText('春季新品 Spring');
    await expect(section.getByTestId('metadata-usageTerms')).toHaveText('仅限电商使用 / e-commerce only');
    await expect(section.getByTestId('metadata-keyword')).toHaveText(['跑鞋', 'white', 'SS26']);
    await expect(section.getByTestId('metadata-capturedAt')).toHaveText(w.taken);
    await expect(section.getByTestId('metadata-gps')).toContainText('31.230400, 121.473700');
    // The numbers only, no map link (a click would tell a map service where the picture was taken).
    await expect(section.getByTestId('metadata-gps').getByRole('link')).toHaveCount(0);
    await expect(section.getByTestId('metadata-gps').getByRole('button', { name: w.copy })).toBeVisible();
    await expect(section.getByTestId('metadata-rating')).toHaveText(w.stars);
    await expect(section.locator('.ant-rate-star-full')).toHaveCount(4);
    await expect(section.getByTestId('metadata-label')).toHaveText(w.label);
    // A long description: three lines, the rest on asking.
    const description = section.getByTestId('metadata-description');
    await description.getByRole('button', { name: w.more }).click();
    await expect(description).toContainText(DESCRIPTION);
    await description.getByRole('button', { name: w.less }).click();
    await expect(description.getByRole('button', { name: w.more })).toBeVisible();
    // Neither hovered nor focused when axe looks: Ant Design draws a focused or hovered link in
    // colorLinkHover, 2.8:1 on white with the theme's link colour (app-wide; docs/decisions.md).
    await page.mouse.move(0, 0);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    // Fields the file lacks are left out ("upright" too).
    await expect(section.getByTestId('metadata-orientation')).toHaveCount(0);
    await expect(section.getByTestId('metadata-colour')).toHaveCount(0);

    await page.waitForLoadState('networkidle');
    await expectAccessible(page, `${lang} viewer with its metadata section`);
    // The panel as it opens (the clicks above scrolled it), then scrolled to the section's end.
    await page.getByTestId('info-panel').evaluate((panel) => panel.scrollTo(0, 0));
    await snapBothSizes(page, `viewer-metadata-${lang}`);
    await section.getByTestId('metadata-gps').scrollIntoViewIfNeeded();
    await snapBothSizes(page, `viewer-metadata-${lang}-scrolled`);
  });
}
