import { PlusOutlined } from '@ant-design/icons';
import { MAIL_GROUP_NAME_MAX_CHARS, type MailGroupSummary } from '@dam/contract';
import { App, Button, Empty, Input, Result, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showApiError } from '../../api/showApiError';
import { MailGroupDialog } from './MailGroupDialog';
import { mailGroupColumns } from './mailGroupColumns';
import { useDeleteMailGroup, useMailGroups } from './mailGroupsApi';

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
        columns={mailGroupColumns({
          t,
          onEdit: (group) => setDialog(group.id),
          onDelete: deleteGroup,
          deleting: remove.isPending,
        })}
      />
      {dialog !== null && (
        <MailGroupDialog groupId={dialog === 'new' ? null : dialog} onClose={() => setDialog(null)} />
      )}
    </div>
  );
}
