import type { MyShare } from '@dam/contract';
import { App, Button, Empty, Result, Space, Table, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { showApiError } from '../../api/showApiError';
import { loadMoreTableFooter } from '../../ui/LoadMoreFooter';
import { myShareColumns } from './myShareColumns';
import { shareText, useCopy } from './ShareDialog';
import { absoluteShareUrl, useCancelShare, useMyShares } from './sharesApi';

/** /myshare: the caller's links, their state and counts, with copy and stop (SPEC §2, §4). */
export function MySharesPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const shares = useMyShares();
  const cancel = useCancelShare();
  const copy = useCopy();
  const rows = useMemo(() => shares.data?.pages.flatMap((p) => p.list) ?? [], [shares.data]);

  if (shares.isError && rows.length === 0) {
    return (
      <Result
        status="warning"
        title={t('common.loadFailed')}
        extra={<Button onClick={() => void shares.refetch()}>{t('common.retry')}</Button>}
      />
    );
  }

  const stop = async (share: MyShare) => {
    try {
      await cancel.mutateAsync(share.id);
      void message.success(t('share.cancelOk'));
    } catch (error) {
      showApiError(error);
    }
  };

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="my-shares">
      <Typography.Title level={4} style={{ margin: 0 }}>
        {t('nav.myShares')}
      </Typography.Title>
      <Table<MyShare>
        rowKey="id"
        size="middle"
        loading={shares.isPending}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 1000 }}
        locale={{ emptyText: <Empty description={t('share.emptyMine')} /> }}
        columns={myShareColumns({
          t,
          onCopy: (share) => void copy(shareText(t, absoluteShareUrl(share.url), share.password)),
          onStop: stop,
        })}
        footer={loadMoreTableFooter(shares, t('share.more'))}
      />
    </Space>
  );
}
