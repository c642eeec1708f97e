import {
  ART_NUM_MAX_CHARS,
  SKU_FIELD_MAX_CHARS,
  SKU_NAME_MAX_CHARS,
  type SkuImportField,
} from '@dam/contract';
import type { SkuColumn } from './repository';

/** The column each field of an SKU workbook is stored in (the SKU import and import management). */
export const SKU_FIELD_COLUMN: Record<SkuImportField, SkuColumn> = {
  artNum: 'art_num',
  name: 'name',
  series: 'series',
  category: 'category',
  color: 'color',
  season: 'season',
  gender: 'gender',
};

/** The longest value each field of an SKU workbook may hold, in characters. */
export const SKU_FIELD_MAX: Record<SkuImportField, number> = {
  artNum: ART_NUM_MAX_CHARS,
  name: SKU_NAME_MAX_CHARS,
  series: SKU_FIELD_MAX_CHARS,
  category: SKU_FIELD_MAX_CHARS,
  color: SKU_FIELD_MAX_CHARS,
  season: SKU_FIELD_MAX_CHARS,
  gender: SKU_FIELD_MAX_CHARS,
};
