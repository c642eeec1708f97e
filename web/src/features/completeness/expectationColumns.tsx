import { DeleteOutlined } from '@ant-design/icons';
import {
  COMPLETENESS_FORMATS_PER_VIEW_MAX,
  COMPLETENESS_VIEW_CODE_MAX_CHARS,
  COMPLETENESS_VIEW_NAME_MAX_CHARS,
} from '@dam/contract';
import { Button, Input, Select, type TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';

/** Formats offered in the picker; any other can be typed. */
const FORMAT_OPTIONS = ['jpg', 'png', 'psd', 'tif', 'ai', 'pdf', 'mp4', 'mov'];

/** One view of the expectation as it is being edited; `key` tells the rows apart. */
export interface ViewDraft {
  key: number;
  name: string;
  code: string;
  tagId: number | null;
  formats: string[];
}

interface ExpectationColumnsOptions {
  t: TFunction;
  /** The tag dimensions a view's tag is picked from, once read. */
  dimensions:
    | ReadonlyArray<{ dimensionName: string; tagDTOList: ReadonlyArray<{ id: number; tagName: string }> }>
    | undefined;
  onChange: (key: number, patch: Partial<ViewDraft>) => void;
  onRemove: (key: number) => void;
}

/** The expectation's view rows, edited in place: name, file-name code, tag, formats, delete. */
export function expectationColumns({
  t,
  dimensions,
  onChange,
  onRemove,
}: ExpectationColumnsOptions): TableColumnsType<ViewDraft> {
  return [
    {
      title: t('completeness.viewName'),
      key: 'name',
      width: 150,
      render: (_v, view, index) => (
        <Input
          value={view.name}
          maxLength={COMPLETENESS_VIEW_NAME_MAX_CHARS}
          onChange={(e) => onChange(view.key, { name: e.target.value })}
          data-testid={`view-name-${index}`}
        />
      ),
    },
    {
      title: t('completeness.viewCode'),
      key: 'code',
      width: 150,
      render: (_v, view, index) => (
        <Input
          value={view.code}
          maxLength={COMPLETENESS_VIEW_CODE_MAX_CHARS}
          placeholder={t('completeness.anyFile')}
          onChange={(e) => onChange(view.key, { code: e.target.value })}
          data-testid={`view-code-${index}`}
        />
      ),
    },
    {
      title: t('completeness.viewTag'),
      key: 'tag',
      width: 180,
      render: (_v, view, index) => (
        <Select
          allowClear
          showSearch
          optionFilterProp="label"
          value={view.tagId ?? undefined}
          onChange={(tagId) => onChange(view.key, { tagId: tagId ?? null })}
          placeholder={t('completeness.noTag')}
          options={(dimensions ?? []).map((d) => ({
            label: d.dimensionName,
            options: d.tagDTOList.map((tag) => ({ value: tag.id, label: tag.tagName })),
          }))}
          style={{ width: '100%' }}
          data-testid={`view-tag-${index}`}
        />
      ),
    },
    {
      title: t('completeness.viewFormats'),
      key: 'formats',
      render: (_v, view, index) => (
        <Select
          mode="tags"
          value={view.formats}
          maxCount={COMPLETENESS_FORMATS_PER_VIEW_MAX}
          onChange={(formats) => onChange(view.key, { formats: formats.map((f) => f.toLowerCase()) })}
          options={FORMAT_OPTIONS.map((f) => ({ value: f, label: f.toUpperCase() }))}
          style={{ width: '100%' }}
          data-testid={`view-formats-${index}`}
        />
      ),
    },
    {
      key: 'delete',
      width: 48,
      render: (_v, view) => (
        <Button
          type="text"
          danger
          icon={<DeleteOutlined />}
          aria-label={t('common.delete')}
          onClick={() => onRemove(view.key)}
        />
      ),
    },
  ];
}
