import { type ColourTolerance, REVIEW_STATES, type ReviewState } from '@dam/contract';
import { Button, DatePicker, Form, Select, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { useTagSelector } from '../api/items';
import { ColourField, ToleranceField } from './ColourField';

export interface FilterForm {
  created?: [Dayjs, Dayjs] | null;
  validity?: [Dayjs, Dayjs] | null;
  tagIdList?: number[];
  /** `#rrggbb`, or undefined for any colour (issue 17). */
  colour?: string | undefined;
  colourTolerance?: ColourTolerance;
  /** Only files in this review state (issue 43). */
  reviewState?: ReviewState;
}

/**
 * The filter's form (FilterButton in ListControls): its own chunk, loaded when first opened, with
 * Ant Design's Form, which the folder page's first view then does not load (issue 12 goal 4). The
 * popover keeps it mounted once opened, so the values chosen stay between openings.
 */
export function FilterPanel({
  tags,
  onApply,
  onReset,
}: {
  tags: ReturnType<typeof useTagSelector>;
  onApply: (values: FilterForm) => void;
  onReset: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FilterForm>();
  const colour = Form.useWatch('colour', form);
  return (
    <Form form={form} layout="vertical" onFinish={onApply} style={{ width: 300 }}>
      <Form.Item name="created" label={t('files.createdRange')}>
        <DatePicker.RangePicker style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="validity" label={t('files.validityRange')}>
        <DatePicker.RangePicker style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="tagIdList" label={t('files.tagsFilter')}>
        <Select
          mode="multiple"
          allowClear
          optionFilterProp="label"
          loading={tags.isPending}
          placeholder={t('files.anyTags')}
          options={(tags.data ?? []).map((dimension) => ({
            label: dimension.dimensionName,
            options: dimension.tagDTOList.map((tag) => ({ value: tag.id, label: tag.tagName })),
          }))}
          data-testid="filter-tags"
        />
      </Form.Item>
      <Form.Item name="colour" label={t('colour.label')}>
        <ColourField />
      </Form.Item>
      <Form.Item name="colourTolerance" label={t('colour.tolerance')} hidden={!colour}>
        <ToleranceField />
      </Form.Item>
      <Form.Item name="reviewState" label={t('review.filter')}>
        <Select
          allowClear
          placeholder={t('review.anyState')}
          options={REVIEW_STATES.map((state) => ({ value: state, label: t(`review.state.${state}`) }))}
          data-testid="filter-review-state"
        />
      </Form.Item>
      <Space style={{ width: '100%', justifyContent: 'flex-end' }}>
        <Button
          onClick={() => {
            form.resetFields();
            onReset();
          }}
        >
          {t('files.reset')}
        </Button>
        <Button type="primary" htmlType="submit" data-testid="filter-apply">
          {t('files.apply')}
        </Button>
      </Space>
    </Form>
  );
}
