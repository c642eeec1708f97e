import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { LIMITS, type Sku, type SkuImportResult } from '@dam/contract';
import { Alert, App, Button, Empty, Input, Space, Table, Typography } from 'antd';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showApiError } from '../../api/showApiError';
import { formatDate } from '../files/format';
import { saveSkuTemplate, useImportSkus, useSkuList } from './skuApi';

/**
 * The SKU data the upload dialog checks article numbers against (issue 4): import from Excel
 * (the template's header row, Chinese or English), and the articles stored, searchable.
 * The tab shows to holders of the import code; the server checks the same code on import.
 */
export function SkuImportPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const input = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState('');
  const [importing, setImporting] = useState(false);
  const [result, setResult] = useState<SkuImportResult | null>(null);

  const list = useSkuList(query);
  const importSkus = useImportSkus();
  const rows = useMemo(() => list.data?.pages.flatMap((page) => page.list) ?? [], [list.data]);

  const importFile = async (file: File) => {
    setImporting(true);
    setResult(null);
    try {
      const imported = await importSkus.mutateAsync(file);
      setResult(imported);
      void message.success(t('sku.imported', { count: String(imported.total) }));
    } catch (error) {
      showApiError(error);
    } finally {
      setImporting(false);
    }
  };

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="sku-page">
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('sku.intro')}
      </Typography.Paragraph>
      <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
        <Input.Search
          allowClear
          maxLength={LIMITS.searchChars}
          placeholder={t('sku.search')}
          onSearch={(value) => setQuery(value.trim())}
          style={{ width: 280 }}
          data-testid="sku-search"
        />
        <Space>
          <Button icon={<DownloadOutlined />} onClick={() => void saveSkuTemplate()}>
            {t('sku.template')}
          </Button>
          <Button
            type="primary"
            icon={<UploadOutlined />}
            loading={importing}
            onClick={() => input.current?.click()}
            data-testid="sku-import"
          >
            {t('sku.import')}
          </Button>
          <input
            ref={input}
            type="file"
            hidden
            accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            data-testid="sku-import-input"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) void importFile(file);
            }}
          />
        </Space>
      </Space>
      {result && (
        <Alert
          type="success"
          showIcon
          closable={{ onClose: () => setResult(null) }}
          data-testid="sku-import-result"
          title={t('sku.result', {
            total: String(result.total),
            created: String(result.created),
            updated: String(result.updated),
            unchanged: String(result.unchanged),
          })}
        />
      )}
      <Table<Sku>
        rowKey="id"
        size="middle"
        loading={list.isPending}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 900 }}
        locale={{ emptyText: <Empty description={query ? t('sku.noMatch') : t('sku.empty')} /> }}
        columns={[
          {
            title: t('sku.artNum'),
            dataIndex: 'artNum',
            width: 160,
            render: (artNum: string) => <span data-testid="sku-art-num">{artNum}</span>,
          },
          { title: t('sku.name'), dataIndex: 'name', ellipsis: true },
          { title: t('sku.series'), dataIndex: 'series', width: 120, ellipsis: true },
          { title: t('sku.category'), dataIndex: 'category', width: 120, ellipsis: true },
          { title: t('sku.color'), dataIndex: 'color', width: 110, ellipsis: true },
          { title: t('sku.season'), dataIndex: 'season', width: 100 },
          { title: t('sku.gender'), dataIndex: 'gender', width: 80 },
          {
            title: t('sku.updatedAt'),
            dataIndex: 'updatedAt',
            width: 170,
            render: (at: string) => formatDate(at),
          },
        ]}
        footer={
          list.hasNextPage
            ? () => (
                <Button
                  block
                  type="link"
                  onClick={() => void list.fetchNextPage()}
                  loading={list.isFetchingNextPage}
                >
                  {t('sku.more')}
                </Button>
              )
            : undefined
        }
      />
    </Space>
  );
}
