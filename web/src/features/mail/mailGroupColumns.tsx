import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import type { MailGroupSummary } from '@dam/contract';
import { Button, Popconfirm, Space, type TableColumnsType, Tooltip, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { formatDate } from '../../ui/format';
import { unnamedCount } from './members';

interface MailGroupColumnsOptions {
  t: TFunction;
  onEdit: (group: MailGroupSummary) => void;
  /** Returns the deletion's promise: Popconfirm keeps its OK button loading until it settles. */
  onDelete: (group: MailGroupSummary) => Promise<void>;
  /** A deletion is under way. */
  deleting: boolean;
}

/** The mail groups table's columns: name, member count, members, department, update time, actions. */
export function mailGroupColumns({
  t,
  onEdit,
  onDelete,
  deleting,
}: MailGroupColumnsOptions): TableColumnsType<MailGroupSummary> {
  return [
    {
      title: t('mailGroups.name'),
      dataIndex: 'mailGroupName',
      width: 200,
      render: (name: string) => (
        <Typography.Text strong data-testid="mail-group-row-name">
          {name}
        </Typography.Text>
      ),
    },
    {
      title: t('mailGroups.memberCount'),
      dataIndex: 'memberCount',
      width: 110,
      onHeaderCell: () => ({ style: { whiteSpace: 'nowrap' } }),
      align: 'right',
      render: (count: number) => <span data-testid="mail-group-row-count">{count}</span>,
    },
    {
      title: t('mailGroups.members'),
      key: 'members',
      ellipsis: true,
      render: (_value, group) => {
        const rest = unnamedCount(group.members, group.memberCount);
        return (
          <span data-testid="mail-group-row-members">
            {group.members.join(t('mailGroups.separator'))}
            {rest > 0 && (
              <Typography.Text type="secondary">{` ${t('mailGroups.more', { count: rest })}`}</Typography.Text>
            )}
          </span>
        );
      },
    },
    {
      title: t('mailGroups.department'),
      dataIndex: 'deptName',
      width: 130,
      ellipsis: true,
      render: (name: string | null) => name ?? '—',
    },
    {
      title: t('mailGroups.updatedAt'),
      dataIndex: 'updatedAt',
      width: 150,
      render: (at: string) => <span style={{ whiteSpace: 'nowrap' }}>{formatDate(at)}</span>,
    },
    {
      title: t('mailGroups.actions'),
      key: 'actions',
      width: 100,
      fixed: 'right',
      render: (_value, group) => (
        <Space size={0}>
          <Tooltip title={t('mailGroups.edit')}>
            <Button
              type="text"
              icon={<EditOutlined />}
              onClick={() => onEdit(group)}
              aria-label={t('mailGroups.edit')}
              data-testid="mail-group-edit"
            />
          </Tooltip>
          <Popconfirm
            title={t('mailGroups.deleteConfirm', { name: group.mailGroupName })}
            description={t('mailGroups.deleteHint')}
            okText={t('common.delete')}
            cancelText={t('common.cancel')}
            okButtonProps={{ danger: true, loading: deleting }}
            onConfirm={() => onDelete(group)}
          >
            {/* No tooltip: it would stay over the confirmation's buttons. */}
            <Button
              type="text"
              danger
              icon={<DeleteOutlined />}
              aria-label={t('mailGroups.delete')}
              data-testid="mail-group-delete"
            />
          </Popconfirm>
        </Space>
      ),
    },
  ];
}
