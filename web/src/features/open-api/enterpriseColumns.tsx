import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import type { ApiEnterprise } from '@dam/contract';
import { Button, Popconfirm, Space, type TableColumnsType, Tag, Tooltip, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { formatDate } from '../../ui/format';
import { orderedCalls } from './access';

interface EnterpriseColumnsOptions {
  t: TFunction;
  onEdit: (enterprise: ApiEnterprise) => void;
  /** Returns the deletion's promise: Popconfirm keeps its OK button loading until it settles. */
  onDelete: (enterprise: ApiEnterprise) => Promise<void>;
  /** A deletion is under way. */
  deleting: boolean;
}

/** The enterprises table's columns: name and id, rate, allowed calls, records, update time, actions. */
export function enterpriseColumns({
  t,
  onEdit,
  onDelete,
  deleting,
}: EnterpriseColumnsOptions): TableColumnsType<ApiEnterprise> {
  return [
    {
      title: t('openApi.enterpriseName'),
      key: 'name',
      width: 200,
      render: (_value, enterprise) => (
        <div>
          <Typography.Text strong data-testid="api-enterprise-row-name">
            {enterprise.name}
          </Typography.Text>
          <div>
            <Typography.Text type="secondary" style={{ fontSize: 12 }} copyable>
              {enterprise.enterpriseId}
            </Typography.Text>
          </div>
        </div>
      ),
    },
    {
      title: t('openApi.ratePerMinute'),
      dataIndex: 'ratePerMinute',
      width: 120,
      align: 'right',
      onHeaderCell: () => ({ style: { whiteSpace: 'nowrap' } }),
      render: (rate: number) => rate.toLocaleString(),
    },
    {
      title: t('openApi.allowedCalls'),
      key: 'calls',
      render: (_value, enterprise) =>
        enterprise.apiCodes.length === 0 ? (
          <Typography.Text type="warning">{t('openApi.noCallsAllowed')}</Typography.Text>
        ) : (
          <Space size={[4, 4]} wrap data-testid="api-enterprise-row-calls">
            {orderedCalls(enterprise.apiCodes).map((code) => (
              <Tag key={code} style={{ marginInlineEnd: 0 }}>
                {t(`openApi.call.${code}`)}
              </Tag>
            ))}
          </Space>
        ),
    },
    {
      title: t('openApi.accessCount'),
      dataIndex: 'accessCount',
      width: 120,
      align: 'right',
      onHeaderCell: () => ({ style: { whiteSpace: 'nowrap' } }),
      render: (count: number) => <span data-testid="api-enterprise-row-count">{count}</span>,
    },
    {
      title: t('openApi.updatedAt'),
      dataIndex: 'updatedAt',
      width: 150,
      render: (at: string) => <span style={{ whiteSpace: 'nowrap' }}>{formatDate(at)}</span>,
    },
    {
      title: t('openApi.actions'),
      key: 'actions',
      width: 100,
      fixed: 'right',
      render: (_value, enterprise) => (
        <Space size={0}>
          <Tooltip title={t('openApi.edit')}>
            <Button
              type="text"
              icon={<EditOutlined />}
              onClick={() => onEdit(enterprise)}
              aria-label={t('openApi.edit')}
              data-testid="api-enterprise-edit"
            />
          </Tooltip>
          <Popconfirm
            title={t('openApi.deleteEnterpriseConfirm', { name: enterprise.name })}
            description={t('openApi.deleteEnterpriseHint')}
            okText={t('common.delete')}
            cancelText={t('common.cancel')}
            okButtonProps={{ danger: true, loading: deleting }}
            onConfirm={() => onDelete(enterprise)}
          >
            <Button
              type="text"
              danger
              icon={<DeleteOutlined />}
              aria-label={t('openApi.delete')}
              data-testid="api-enterprise-delete"
            />
          </Popconfirm>
        </Space>
      ),
    },
  ];
}
