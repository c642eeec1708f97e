import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import type { MetadataTagRule } from '@dam/contract';
import { App, Button, Popconfirm, Space, Table } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useDeleteMappingRule, useMappingRules } from './api';

/** The rules: field → dimension, with edit and delete. */
export function RulesTable({ onEdit }: { onEdit: (rule: MetadataTagRule) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
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
              <Popconfirm
                title={t('metadataMapping.confirmDelete')}
                okText={t('common.delete')}
                cancelText={t('common.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={async () => {
                  await remove.mutateAsync(rule.id);
                  void message.success(t('common.deleteOk'));
                }}
              >
                <Button
                  type="link"
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('common.delete')}
                  data-testid="mapping-rule-delete"
                />
              </Popconfirm>
            </Space>
          ),
        },
      ]}
    />
  );
}
