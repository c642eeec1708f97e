import {
  fillTemplate,
  type Language,
  leastPageHeight,
  pageHeightLimit,
  type TemplateSpec,
} from '@dam/contract';
import { AppError } from '../../http/app-error';

/** SECP_07's detail when a template is too tall whatever fills it: its least height and the limit. */
const TOO_TALL_WHATEVER_IMAGES: Record<Language, string> = {
  zh: '无论放入什么图片都至少 {least} 像素高，最多 {max} 像素',
  en: 'at least {least} px whatever images fill it, at most {max} px',
  ja: 'どの画像を入れても {least} ピクセル以上になります（上限 {max} ピクセル）',
  ko: '어떤 이미지를 넣어도 {least}픽셀 이상입니다(최대 {max}픽셀)',
  de: 'mindestens {least} px hoch, welche Bilder auch immer, höchstens {max} px',
};

/** SECP_07 (the page is too tall) for a template, its figures written as the caller's language writes numbers. */
export class TemplateTooTallError extends AppError {
  constructor(
    readonly least: number,
    readonly max: number,
  ) {
    super('SECP_07');
  }

  override valuesIn(lang: Language): Record<string, string> {
    const number = (value: number) => value.toLocaleString(lang);
    return {
      detail: fillTemplate(TOO_TALL_WHATEVER_IMAGES[lang], {
        least: number(this.least),
        max: number(this.max),
      }),
    };
  }
}

/**
 * Refuses (SECP_07) a template no article can be rendered with: taller than the renderer's limit
 * (the configured page height, or the pixel limit at its width) even with every image 1 px tall.
 * `assets` are the sizes of its fixed images.
 */
export function checkTemplateHeight(
  spec: Pick<TemplateSpec, 'width' | 'blocks'>,
  assets: ReadonlyArray<{ id: number; width: number; height: number }>,
  maxPageHeight: number,
): void {
  const sizes = Object.fromEntries(assets.map((asset) => [asset.id, asset]));
  const least = leastPageHeight(spec, sizes);
  const max = pageHeightLimit(spec.width, maxPageHeight);
  if (least > max) throw new TemplateTooTallError(least, max);
}
