import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { MAIL_GROUP_NAME_MAX_CHARS, type MailGroupSummary } from '@dam/contract';
import { App, Button, Empty, Input, Popconfirm, Result, Space, Table, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showApiError } from '../../api/showApiError';
import { formatDate } from '../../ui/format';
import { MailGroupDialog } from './MailGroupDialog';
import { useDeleteMailGroup, useMailGroups } from './mailGroupsApi';
import { unnamedCount } from './members';

const PAGE_SIZE = 20;

/**
 * /mail (SPEC §2 "mail groups", function code 1): the groups the administrator manages, with
 * creating, editing and deleting them (SPEC §8: deleting asks first). Members are picked from the
 * users of the administrator's department subtree, plus external addresses.
 */
export function MailGroupsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [keyword, setKeyword] = useState('');
  const [pageNo, setPageNo] = useState(1);
  const [dialog, setDialog] = useState<number | 'new' | null>(null);
  const groups = useMailGroups({ ...(keyword ? { keyword } : {}), pageNo, pageSize: PAGE_SIZE });
  const remove = useDeleteMailGroup();

  const deleteGroup = async (group: MailGroupSummary) => {
    try {
      await remove.mutateAsync(group.id);
      void message.success(t('common.deleteOk'));
      // The last one of a later page: go back a page.
      if (groups.data && groups.data.list.length === 1 && pageNo > 1) setPageNo(pageNo - 1);
    } catch (error) {
      showApiError(error);
    }
  };

  const createButton = (
    <Button
      type="primary"
      icon={<PlusOutlined />}
      onClick={() => setDialog('new')}
      data-testid="mail-group-new"
    >
      {t('mailGroups.create')}
    </Button>
  );

  if (groups.isError && !groups.data) {
    return (
      <Result
        status="warning"
        title={t('mailGroups.loadFailed')}
        subTitle={groups.error.message}
        extra={<Button onClick={() => void groups.refetch()}>{t('common.retry')}</Button>}
        data-testid="mail-groups-error"
      />
    );
  }

  const empty = !keyword && groups.data?.total === 0;

  return (
    <div data-testid="mail-groups-page">
      <div style={{ display: 'flex', alignItems: 'center', gap: 16, marginBottom: 12, flexWrap: 'wrap' }}>
        <Typography.Text type="secondary" style={{ flex: 1, minWidth: 240 }}>
          {t('mailGroups.intro')}
        </Typography.Text>
        <Input.Search
          allowClear
          maxLength={MAIL_GROUP_NAME_MAX_CHARS}
          placeholder={t('mailGroups.search')}
          onSearch={(text) => {
            setKeyword(text.trim());
            setPageNo(1);
          }}
          style={{ width: 240 }}
          data-testid="mail-group-search"
        />
        {createButton}
      </div>
      <Table<MailGroupSummary>
        rowKey="id"
        loading={groups.isPending || groups.isFetching}
        dataSource={groups.data?.list ?? []}
        scroll={{ x: 900 }}
        locale={{
          emptyText: empty ? (
            <Empty description={t('mailGroups.empty')} data-testid="mail-groups-empty">
              <Typography.Paragraph type="secondary">{t('mailGroups.emptyHint')}</Typography.Paragraph>
            </Empty>
          ) : (
            <Empty description={t('mailGroups.noMatch')} />
          ),
        }}
        pagination={{
          current: pageNo,
          pageSize: PAGE_SIZE,
          total: groups.data?.total ?? 0,
          showSizeChanger: false,
          hideOnSinglePage: true,
          showTotal: (total) => t('mailGroups.total', { count: total }),
          onChange: setPageNo,
        }}
        columns={[
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
                    onClick={() => setDialog(group.id)}
                    aria-label={t('mailGroups.edit')}
                    data-testid="mail-group-edit"
                  />
                </Tooltip>
                <Popconfirm
                  title={t('mailGroups.deleteConfirm', { name: group.mailGroupName })}
                  description={t('mailGroups.deleteHint')}
                  okText={t('common.delete')}
                  cancelText={t('common.cancel')}
                  okButtonProps={{ danger: true, loading: remove.isPending }}
                  onConfirm={() => deleteGroup(group)}
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
        ]}
      />
      {dialog !== null && (
        <MailGroupDialog groupId={dialog === 'new' ? null : dialog} onClose={() => setDialog(null)} />
      )}
    </div>
  );
}
