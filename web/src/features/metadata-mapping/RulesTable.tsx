import { EditOutlined } from '@ant-design/icons';
import type { MetadataTagRule } from '@dam/contract';
import { Button, Space, Table } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { DeleteConfirmButton } from '../../ui/DeleteConfirmButton';
import { useDeleteMappingRule, useMappingRules } from './api';

/** The rules: field → dimension, with edit and delete. */
export function RulesTable({ onEdit }: { onEdit: (rule: MetadataTagRule) => void }) {
  const { t } = useTranslation();
  const rules = useMappingRules();
  const remove = useDeleteMappingRule();
  return (
    <Table<MetadataTagRule>
      rowKey="id"
      size="middle"
      loading={rules.isPending}
      dataSource={rules.data ?? []}
      pagination={false}
      data-testid="mapping-rules"
      locale={{ emptyText: t('metadataMapping.empty') }}
      columns={[
        {
          title: t('metadataMapping.sourceField'),
          dataIndex: 'source',
          width: 220,
          render: (source: MetadataTagRule['source']) => t(`metadataMapping.source.${source}`),
        },
        { title: t('metadataMapping.dimension'), dataIndex: 'dimensionName', ellipsis: true },
        {
          title: t('metadataMapping.updatedAt'),
          dataIndex: 'updatedAt',
          width: 170,
          render: (at: string) => (
            <span style={{ whiteSpace: 'nowrap' }}>{dayjs(at).format('YYYY-MM-DD HH:mm')}</span>
          ),
        },
        {
          title: t('metadataMapping.actions'),
          key: 'actions',
          width: 100,
          render: (_value, rule) => (
            <Space size={0}>
              <Button
                type="link"
                size="small"
                icon={<EditOutlined />}
                onClick={() => onEdit(rule)}
                aria-label={t('metadataMapping.edit')}
                data-testid="mapping-rule-edit"
              />
              <DeleteConfirmButton
                title={t('metadataMapping.confirmDelete')}
                onDelete={() => remove.mutateAsync(rule.id)}
                testId="mapping-rule-delete"
              />
            </Space>
          ),
        },
      ]}
    />
  );
}
