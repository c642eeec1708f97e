import type { MappingFinding } from '@dam/contract';
import { Table, Tag } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMappingFindings } from './api';
import { findingText } from './findingText';

/** Recent conflicts and unmatched values of files the caller may see, newest first, paged. */
export function FindingsTable() {
  const { t } = useTranslation();
  const [page, setPage] = useState({ pageNo: 1, pageSize: 10 });
  const findings = useMappingFindings(page.pageNo, page.pageSize);
  return (
    <Table<MappingFinding>
      rowKey="id"
      size="middle"
      loading={findings.isPending}
      dataSource={findings.data?.list ?? []}
      data-testid="mapping-findings"
      locale={{ emptyText: t('metadataMapping.noFindings') }}
      scroll={{ x: 900 }}
      pagination={{
        current: page.pageNo,
        pageSize: page.pageSize,
        total: findings.data?.total ?? 0,
        showSizeChanger: true,
        onChange: (pageNo, pageSize) => setPage({ pageNo, pageSize }),
      }}
      columns={[
        {
          title: t('metadataMapping.file'),
          dataIndex: 'fileName',
          width: 220,
          ellipsis: true,
        },
        {
          title: t('metadataMapping.kind'),
          dataIndex: 'reason',
          width: 110,
          render: (reason: MappingFinding['reason']) =>
            reason === 'unmatched' ? (
              <Tag>{t('metadataMapping.unmatched')}</Tag>
            ) : (
              <Tag color="orange">{t('metadataMapping.conflict')}</Tag>
            ),
        },
        {
          title: t('metadataMapping.what'),
          key: 'text',
          render: (_value, finding) => findingText(t, finding),
        },
        {
          title: t('metadataMapping.foundAt'),
          dataIndex: 'createdAt',
          width: 160,
          render: (at: string) => (
            <span style={{ whiteSpace: 'nowrap' }}>{dayjs(at).format('YYYY-MM-DD HH:mm')}</span>
          ),
        },
      ]}
    />
  );
}
