import type { MappingFinding } from '@dam/contract';
import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import en from '../../i18n/en';
import zh from '../../i18n/zh';
import { findingText } from './findingText';

const finding = (values: Partial<MappingFinding>): MappingFinding => ({
  id: 1,
  fileId: 2,
  fileName: 'shoe',
  recordId: 3,
  source: 'keywords',
  dimensionId: 4,
  dimensionName: '颜色',
  value: '蓝色',
  reason: 'taken',
  detail: ['红色'],
  createdAt: '2026-12-07T10:00:00.000Z',
  ...values,
});

describe('what the mapping could not apply, in words', async () => {
  const i18n = createInstance();
  await i18n.init({
    resources: { zh: { translation: zh }, en: { translation: en } },
    lng: 'zh',
    interpolation: { escapeValue: false },
  });
  const zhT = i18n.getFixedT('zh');
  const enT = i18n.getFixedT('en');

  it('names the tag the file keeps in the dimension (a conflict)', () => {
    expect(findingText(zhT, finding({}))).toBe('关键词 蓝色 未应用：颜色 已是 红色');
    expect(findingText(enT, finding({}))).toBe('Keyword 蓝色 not applied: 颜色 is already 红色');
  });

  it('names every dimension searched for an unmatched value', () => {
    const unmatched = finding({ reason: 'unmatched', value: 'xyz', detail: ['颜色', 'Style'] });
    expect(findingText(zhT, unmatched)).toBe('颜色、Style 中没有标签“xyz”（关键词）');
    expect(findingText(enT, unmatched)).toBe("No tag 'xyz' in dimension 颜色, Style (Keyword)");
  });

  it('says which superior tag or required dimension is missing', () => {
    expect(findingText(enT, finding({ reason: 'parent', source: 'title', detail: ['Shoes'] }))).toBe(
      'Title 蓝色 not applied: it needs its superior tag Shoes',
    );
    expect(findingText(zhT, finding({ reason: 'required', detail: ['季节'] }))).toBe(
      '关键词 蓝色 未应用：必填维度 季节 还没有标签',
    );
  });
});
