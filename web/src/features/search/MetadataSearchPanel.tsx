import { LIMITS, METADATA_KEYWORD_MAX, METADATA_TEXT_FILTERS, type MetadataFilter } from '@dam/contract';
import { Button, DatePicker, Form, Input, Space, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

interface Values {
  creator?: string;
  copyright?: string;
  camera?: string;
  keyword?: string;
  captured?: [Dayjs | null, Dayjs | null] | null;
}

const DAY = 'YYYY-MM-DD';

function valuesOf(filter: MetadataFilter): Values {
  return {
    creator: filter.creator,
    copyright: filter.copyright,
    camera: filter.camera,
    keyword: filter.keyword,
    captured:
      filter.capturedFrom || filter.capturedTo
        ? [
            filter.capturedFrom ? dayjs(filter.capturedFrom) : null,
            filter.capturedTo ? dayjs(filter.capturedTo) : null,
          ]
        : null,
  };
}

function filterOf(values: Values): MetadataFilter {
  const filter: MetadataFilter = {};
  for (const key of [...METADATA_TEXT_FILTERS, 'keyword'] as const) {
    const text = values[key]?.trim();
    if (text) filter[key] = text;
  }
  const [from, to] = values.captured ?? [];
  if (from) filter.capturedFrom = from.format(DAY);
  if (to) filter.capturedTo = to.format(DAY);
  return filter;
}

/**
 * The search bar's metadata popover (issue 42 item 2): creator, copyright, camera, a keyword and
 * the capture days, searched with what the bar holds. Its own chunk (the date picker's weight).
 * Escape closes the popover only (an open calendar closes first, by itself).
 */
export function MetadataSearchPanel({
  filter,
  onSearch,
  onClose,
}: {
  filter: MetadataFilter;
  onSearch: (filter: MetadataFilter) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [calendarOpen, setCalendarOpen] = useState(false);
  const text = (key: (typeof METADATA_TEXT_FILTERS)[number] | 'keyword', autoFocus = false) => (
    <Form.Item name={key} label={t(`search.metadata.${key}`)} style={{ marginBottom: 10 }}>
      <Input
        maxLength={key === 'keyword' ? METADATA_KEYWORD_MAX : LIMITS.searchChars}
        allowClear
        autoFocus={autoFocus}
        data-testid={`search-metadata-${key}`}
      />
    </Form.Item>
  );
  return (
    <div style={{ width: 320 }} data-testid="search-metadata-panel">
      <Typography.Paragraph type="secondary" style={{ marginBottom: 10 }}>
        {t('search.metadata.hint')}
      </Typography.Paragraph>
      <Form<Values>
        form={form}
        layout="vertical"
        size="small"
        initialValues={valuesOf(filter)}
        onFinish={(values) => onSearch(filterOf(values))}
        onKeyDown={(event) => {
          if (event.key !== 'Escape' || calendarOpen) return;
          event.stopPropagation();
          onClose();
        }}
      >
        {text('creator', true)}
        {text('copyright')}
        {text('camera')}
        {text('keyword')}
        <Form.Item name="captured" label={t('search.metadata.captured')} style={{ marginBottom: 12 }}>
          <DatePicker.RangePicker
            allowEmpty={[true, true]}
            onOpenChange={setCalendarOpen}
            style={{ width: '100%' }}
            data-testid="search-metadata-captured"
          />
        </Form.Item>
        <Space style={{ width: '100%', justifyContent: 'flex-end' }}>
          <Button onClick={() => form.setFieldsValue(valuesOf({}))} data-testid="search-metadata-clear">
            {t('search.clear')}
          </Button>
          <Button type="primary" htmlType="submit" data-testid="search-metadata-go">
            {t('search.go')}
          </Button>
        </Space>
      </Form>
    </div>
  );
}
