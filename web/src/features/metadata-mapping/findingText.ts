import type { MappingFinding } from '@dam/contract';
import type { TFunction } from 'i18next';

/**
 * One finding as a sentence: "关键词 蓝色 未应用：颜色 已是 红色" / "Keyword 蓝色 not applied: 颜色 is
 * already 红色"; an unmatched value names the dimensions searched.
 */
export function findingText(t: TFunction, finding: MappingFinding): string {
  const values = {
    source: t(`metadataMapping.source.${finding.source}`),
    value: finding.value,
    dimension: finding.dimensionName,
    detail: finding.detail.join(t('metadataMapping.listSeparator')),
  };
  return t(`metadataMapping.finding.${finding.reason}`, values);
}
