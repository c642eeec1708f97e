import type { ImportKind, ImportSummary } from '@dam/contract';
import { Button, Card, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../ui/format';
import { useImportHistory } from './importsApi';
import { StatusTag } from './StatusTag';

const HISTORY_PAGE_SIZE = 10;

/** Every import, newest first, with who, when and the result; one is opened above. */
export function ImportHistory({ onOpen, current }: { onOpen: (id: number) => void; current: number | null }) {
  const { t } = useTranslation();
  const [pageNo, setPageNo] = useState(1);
  const history = useImportHistory(pageNo, HISTORY_PAGE_SIZE);
  return (
    <Card size="small" title={t('imports.history')}>
      <Table<ImportSummary>
        size="middle"
        rowKey="id"
        data-testid="import-history"
        loading={history.isPending}
        dataSource={history.data?.list ?? []}
        rowClassName={(row) => (row.id === current ? 'ant-table-row-selected' : '')}
        scroll={{ x: 1300 }}
        pagination={{
          current: pageNo,
          pageSize: HISTORY_PAGE_SIZE,
          total: history.data?.total ?? 0,
          showSizeChanger: false,
          onChange: setPageNo,
        }}
        columns={[
          {
            title: t('imports.file'),
            dataIndex: 'fileName',
            width: 240,
            ellipsis: true,
            render: (name: string) => <span data-testid="import-history-file">{name}</span>,
          },
          {
            title: t('imports.kindLabel'),
            dataIndex: 'kind',
            width: 120,
            render: (k: ImportKind) => t(`imports.kind.${k}`),
          },
          {
            title: t('imports.statusLabel'),
            dataIndex: 'status',
            width: 110,
            render: (status: ImportSummary['status']) => <StatusTag status={status} />,
          },
          {
            title: t('imports.result'),
            width: 260,
            render: (_v, row) =>
              row.status === 'rejected'
                ? t('imports.resultProblems', { problems: String(row.problemCount) })
                : t('imports.resultCounts', {
                    created: String(row.created),
                    updated: String(row.updated),
                    unchanged: String(row.unchanged),
                  }),
          },
          {
            title: t('imports.uploadedBy'),
            dataIndex: 'userName',
            width: 130,
            render: (name: string | null) => name ?? '—',
          },
          {
            title: t('imports.uploadedAt'),
            dataIndex: 'createdAt',
            width: 150,
            render: (at: string) => formatDate(at),
          },
          {
            title: t('imports.appliedAt'),
            width: 200,
            render: (_v, row) =>
              row.appliedAt ? `${row.appliedByName ?? '—'} · ${formatDate(row.appliedAt)}` : '—',
          },
          {
            title: '',
            width: 90,
            render: (_v, row) => (
              <Button type="link" size="small" onClick={() => onOpen(row.id)} data-testid="import-open">
                {t('imports.open')}
              </Button>
            ),
          },
        ]}
      />
    </Card>
  );
}
