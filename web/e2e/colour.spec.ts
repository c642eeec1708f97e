import { expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { itemCard, newFolderWithFiles, signIn, snapBothSizes, switchToEnglish } from './support';

/**
 * Issue 39 defect 1: the colour swatches find colour families that cover a real part of the
 * picture. Green backgrounds of several shades are found by the green swatch, a salmon picture by
 * the red one, and a blue picture with a small red dot by neither.
 */

/** A shoe-like shape in `shoe` on `background`, or a dot of `dot` on it. */
async function picture(background: string, shoe?: string, dot?: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 90" width="900" height="675">
    <rect width="120" height="90" fill="${background}"/>
    ${shoe ? `<path d="M10 62 C 14 40, 40 34, 58 30 L 76 22 C 86 20, 96 26, 100 40 L 110 58 C 112 66, 104 70, 96 70 L 16 70 C 10 70, 8 66, 10 62 Z" fill="${shoe}"/><path d="M8 70 L 112 70 L 110 76 L 12 76 Z" fill="#333333"/>` : ''}
    ${dot ? `<circle cx="84" cy="30" r="7" fill="${dot}"/>` : ''}
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 88 }).toBuffer();
}

async function colourJourney(page: Page, lang: 'zh' | 'en') {
  // Five uploads through the media job and screenshots at two sizes: more than the default minute.
  test.setTimeout(300_000);
  await signIn(page);
  const tag = `${lang}${Date.now().toString(36)}`;
  const files = {
    greenLeaf: ['#2e7d32', '#ffffff'],
    greenMint: ['#98ff98', '#555555'],
    greenOlive: ['#6b8e23'],
    salmon: ['#fa8072', '#ffffff'],
  } as const;
  const upload = [];
  for (const [key, [background, shoe]] of Object.entries(files))
    upload.push({
      name: `${tag}-${key}.jpg`,
      mimeType: 'image/jpeg',
      buffer: await picture(background, shoe),
    });
  upload.push({
    name: `${tag}-blueDot.jpg`,
    mimeType: 'image/jpeg',
    buffer: await picture('#1565c0', undefined, '#8b0000'),
  });
  await newFolderWithFiles(page, `${lang === 'zh' ? '颜色' : 'Colours'} ${tag}`, upload);
  for (const { name } of upload)
    await expect(itemCard(page, name.replace(/\.jpg$/, '')).locator('img')).toBeVisible({ timeout: 60_000 });

  // The green swatch: every green, whatever its shade, and nothing else.
  await page.getByTestId('filter-button').click();
  await page.getByTestId('colour-preset-green').click();
  await expect(page.getByTestId('colour-tolerance')).toBeVisible();
  await expect(page.getByTestId('colour-tolerance')).toContainText('15');
  await snapBothSizes(page, `colour-filter-green-${lang}`);
  await page.getByTestId('filter-apply').click();
  for (const key of ['greenLeaf', 'greenMint', 'greenOlive'])
    await expect(itemCard(page, `${tag}-${key}`)).toBeVisible();
  await expect(itemCard(page, `${tag}-salmon`)).toHaveCount(0);
  await expect(itemCard(page, `${tag}-blueDot`)).toHaveCount(0);
  await snapBothSizes(page, `colour-filter-green-results-${lang}`);

  // The search bar's red swatch: the salmon picture, not the blue one with a small red dot.
  await page.getByTestId('search-colour').click();
  await page.getByTestId('search-colour-panel').getByTestId('colour-preset-red').click();
  await snapBothSizes(page, `colour-search-red-${lang}`);
  await page.getByTestId('search-colour-go').click();
  await page.waitForURL(/colour=%23cc0000/);
  await expect(itemCard(page, `${tag}-salmon`)).toBeVisible();
  await expect(itemCard(page, `${tag}-blueDot`)).toHaveCount(0);
  await expect(itemCard(page, `${tag}-greenLeaf`)).toHaveCount(0);
}

test('the green swatch finds every green picture and the red one a salmon picture, not a red dot', async ({
  page,
}) => {
  await colourJourney(page, 'zh');
});

test('colour families in English', async ({ page }) => {
  await switchToEnglish(page);
  await colourJourney(page, 'en');
});
