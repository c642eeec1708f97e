import { ReloadOutlined, SearchOutlined, SettingOutlined } from '@ant-design/icons';
import { ART_NUM_MAX_CHARS, type CompletenessFilter, type CompletenessStatus } from '@dam/contract';
import { Button, Input, Segmented, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useTagDimensions } from '../../api/tags';
import { ExportButton } from '../../ui/ExportButton';
import type { useCompletenessOptions } from './completenessApi';

export interface FilterForm {
  seasons: string[];
  categories: string[];
  tagIdList: number[];
  deptId: number | undefined;
  artNum: string;
  status: CompletenessStatus;
}

export const EMPTY: FilterForm = {
  seasons: [],
  categories: [],
  tagIdList: [],
  deptId: undefined,
  artNum: '',
  status: 'all',
};

export function toFilter(form: FilterForm): CompletenessFilter {
  return {
    ...(form.seasons.length ? { seasons: form.seasons } : {}),
    ...(form.categories.length ? { categories: form.categories } : {}),
    ...(form.tagIdList.length ? { tagIdList: form.tagIdList } : {}),
    ...(form.deptId !== undefined ? { deptId: form.deptId } : {}),
    ...(form.artNum.trim() ? { artNum: form.artNum.trim() } : {}),
    status: form.status,
  };
}

/**
 * The completeness filters (seasons, categories, tags, department, article number prefix, status)
 * and the screen's buttons: search, reset, expected views, export.
 */
export function CompletenessFilterBar({
  form,
  setForm,
  options,
  onSearch,
  onStatus,
  onReset,
  onExpectation,
  onExport,
}: {
  form: FilterForm;
  setForm: (form: FilterForm) => void;
  options: ReturnType<typeof useCompletenessOptions>;
  onSearch: () => void;
  /** A status is searched for at once, with the rest of the form as it is. */
  onStatus: (form: FilterForm) => void;
  /** Back to the screen's first filter (the latest season). */
  onReset: () => void;
  onExpectation: () => void;
  onExport: () => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const dimensions = useTagDimensions();
  return (
    <Space wrap>
      <Select
        mode="multiple"
        allowClear
        maxTagCount="responsive"
        value={form.seasons}
        onChange={(seasons) => setForm({ ...form, seasons })}
        placeholder={t('completeness.allSeasons')}
        options={(options.data?.seasons ?? []).map((s) => ({ value: s, label: s }))}
        style={{ width: 200 }}
        aria-label={t('completeness.allSeasons')}
        data-testid="completeness-seasons"
      />
      <Select
        mode="multiple"
        allowClear
        maxTagCount="responsive"
        value={form.categories}
        onChange={(categories) => setForm({ ...form, categories })}
        placeholder={t('completeness.allCategories')}
        options={(options.data?.categories ?? []).map((s) => ({ value: s, label: s }))}
        style={{ width: 180 }}
        aria-label={t('completeness.allCategories')}
        data-testid="completeness-categories"
      />
      <Select
        mode="multiple"
        allowClear
        maxTagCount="responsive"
        value={form.tagIdList}
        onChange={(tagIdList) => setForm({ ...form, tagIdList })}
        placeholder={t('completeness.allTags')}
        optionFilterProp="label"
        options={(dimensions.data ?? []).map((d) => ({
          label: d.dimensionName,
          options: d.tagDTOList.map((tag) => ({ value: tag.id, label: tag.tagName })),
        }))}
        style={{ width: 200 }}
        aria-label={t('completeness.allTags')}
        data-testid="completeness-tags"
      />
      <Select
        allowClear
        showSearch
        optionFilterProp="label"
        value={form.deptId}
        onChange={(deptId) => setForm({ ...form, deptId })}
        placeholder={t('completeness.allDepartments')}
        options={(options.data?.departments ?? []).map((d) => ({ value: d.id, label: d.name }))}
        style={{ width: 170 }}
        aria-label={t('completeness.allDepartments')}
        data-testid="completeness-dept"
      />
      <Input
        allowClear
        value={form.artNum}
        onChange={(e) => setForm({ ...form, artNum: e.target.value })}
        onPressEnter={onSearch}
        maxLength={ART_NUM_MAX_CHARS}
        placeholder={t('completeness.artNumPrefix')}
        style={{ width: 170 }}
        data-testid="completeness-art-num-filter"
      />
      <Segmented<CompletenessStatus>
        value={form.status}
        onChange={(status) => onStatus({ ...form, status })}
        options={[
          { value: 'all', label: t('completeness.statusAll') },
          { value: 'incomplete', label: t('completeness.statusIncomplete') },
          { value: 'complete', label: t('completeness.statusComplete') },
        ]}
        data-testid="completeness-status"
      />
      <Button type="primary" icon={<SearchOutlined />} onClick={onSearch} data-testid="completeness-search">
        {t('completeness.search')}
      </Button>
      <Button icon={<ReloadOutlined />} onClick={onReset}>
        {t('completeness.reset')}
      </Button>
      <Button icon={<SettingOutlined />} onClick={onExpectation} data-testid="completeness-expectation">
        {t('completeness.expectation')}
      </Button>
      <ExportButton
        save={onExport}
        label={t('completeness.export')}
        hint={t('completeness.exportHint')}
        testId="completeness-export"
      />
    </Space>
  );
}
