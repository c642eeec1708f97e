import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { type LogEntry, OPERATION_GROUPS, OPERATION_LABELS, type OperationCode } from '@dam/contract';
import { Button, DatePicker, Empty, Input, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../i18n';
import { ExportButton } from '../../ui/ExportButton';
import { formatDate } from '../../ui/format';
import { EMPTY_FILTER, type LogFilterForm, toLogFilter } from './logFilter';
import { LOG_PAGE_SIZE, saveLogExport, useOperationLog } from './logsApi';

/** /manage/log (code 5): who did what to which files, when, filtered, paged and exportable. */
export function LogsPage() {
  const { t } = useTranslation();
  const labels = OPERATION_LABELS[currentLanguage() === 'en' ? 'en' : 'zh'];
  const [form, setForm] = useState<LogFilterForm>(EMPTY_FILTER);
  const [applied, setApplied] = useState<LogFilterForm>(EMPTY_FILTER);
  const [pageNo, setPageNo] = useState(1);
  const filter = toLogFilter(applied);
  const logs = useOperationLog(filter, pageNo);

  const search = () => {
    setApplied(form);
    setPageNo(1);
  };

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="logs-page">
      <Space wrap>
        <DatePicker.RangePicker
          value={form.range}
          onChange={(range) => setForm({ ...form, range: range as LogFilterForm['range'] })}
          allowEmpty={[true, true]}
          data-testid="log-range"
        />
        <Input
          allowClear
          value={form.operatorName}
          onChange={(e) => setForm({ ...form, operatorName: e.target.value })}
          onPressEnter={search}
          maxLength={50}
          placeholder={t('log.operator')}
          style={{ width: 150 }}
          data-testid="log-operator"
        />
        <Select<OperationCode[]>
          mode="multiple"
          allowClear
          maxTagCount="responsive"
          value={form.operatorCodes}
          onChange={(codes) => setForm({ ...form, operatorCodes: codes })}
          placeholder={t('log.allOperations')}
          optionFilterProp="label"
          style={{ width: 260 }}
          options={OPERATION_GROUPS.map((group) => ({
            label: t(`log.group.${group.key}`),
            options: group.codes.map((code) => ({ value: code, label: labels[code] })),
          }))}
          aria-label={t('log.allOperations')}
          data-testid="log-operations"
        />
        <Input
          allowClear
          value={form.fileName}
          onChange={(e) => setForm({ ...form, fileName: e.target.value })}
          onPressEnter={search}
          maxLength={255}
          placeholder={t('log.fileName')}
          style={{ width: 180 }}
          data-testid="log-file-name"
        />
        <Button type="primary" icon={<SearchOutlined />} onClick={search} data-testid="log-search">
          {t('log.search')}
        </Button>
        <Button
          icon={<ReloadOutlined />}
          onClick={() => {
            setForm(EMPTY_FILTER);
            setApplied(EMPTY_FILTER);
            setPageNo(1);
          }}
        >
          {t('log.reset')}
        </Button>
        <ExportButton
          save={() => saveLogExport(filter)}
          label={t('log.export')}
          hint={t('log.exportHint')}
          testId="log-export"
        />
      </Space>
      <Table<LogEntry>
        rowKey="id"
        size="middle"
        loading={logs.isFetching}
        dataSource={logs.data?.list ?? []}
        scroll={{ x: 1100 }}
        locale={{ emptyText: <Empty description={t('log.empty')} /> }}
        pagination={{
          current: pageNo,
          pageSize: LOG_PAGE_SIZE,
          total: logs.data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (total) => t('log.total', { count: total }),
          onChange: setPageNo,
        }}
        columns={[
          { title: t('log.time'), dataIndex: 'time', width: 150, render: (at: string) => formatDate(at) },
          {
            title: t('log.operator'),
            dataIndex: 'operatorName',
            width: 120,
            render: (name: string | null) =>
              name ?? <Typography.Text type="secondary">{t('log.visitor')}</Typography.Text>,
          },
          {
            title: t('log.operation'),
            dataIndex: 'operationName',
            width: 150,
            render: (name: string, entry) => (
              <Tag color={entry.reported ? 'default' : 'blue'} data-testid="log-operation">
                {name}
              </Tag>
            ),
          },
          {
            title: t('log.files'),
            key: 'files',
            width: 240,
            render: (_v, entry) =>
              entry.itemCount === 0 ? (
                '—'
              ) : (
                <Tooltip title={entry.fileNames.join('\n')}>
                  <span data-testid="log-files">
                    {entry.fileNames.slice(0, 2).join('、')}
                    {entry.itemCount > 2 && (
                      <Typography.Text type="secondary">
                        {' '}
                        {t('log.moreFiles', { count: String(entry.itemCount - 2) })}
                      </Typography.Text>
                    )}
                  </span>
                </Tooltip>
              ),
          },
          {
            title: t('log.content'),
            dataIndex: 'content',
            ellipsis: { showTitle: true },
            render: (content: string, entry) => (
              <span data-testid="log-content">{content || entry.newValue || '—'}</span>
            ),
          },
          { title: 'IP', dataIndex: 'ip', width: 130, render: (ip: string | null) => ip ?? '—' },
        ]}
      />
    </Space>
  );
}
