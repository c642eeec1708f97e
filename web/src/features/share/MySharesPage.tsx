import {
  CopyOutlined,
  FileImageOutlined,
  FileOutlined,
  FolderFilled,
  StopOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import { ItemType, type MyShare, ShareStatus } from '@dam/contract';
import { App, Button, Empty, Popconfirm, Result, Space, Table, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { showApiError } from '../../api/showApiError';
import { formatDate } from '../../ui/format';
import { loadMoreTableFooter } from '../../ui/LoadMoreFooter';
import { testId } from '../../ui/testId';
import { shareText, useCopy } from './ShareDialog';
import { absoluteShareUrl, useCancelShare, useMyShares } from './sharesApi';

/** A link's icon without a cover: what its first item is (a folder shows a folder, not a picture). */
const ICON_STYLE = { fontSize: 28, width: 48 };
function TypeIcon({ type }: { type: number | null }) {
  if (type === ItemType.folder)
    return <FolderFilled style={{ ...ICON_STYLE, color: '#f5b335' }} data-testid="share-icon-folder" />;
  if (type === ItemType.video) return <VideoCameraOutlined style={{ ...ICON_STYLE, color: '#8b5cf6' }} />;
  if (type === ItemType.image) return <FileImageOutlined style={{ ...ICON_STYLE, color: '#3b82f6' }} />;
  return <FileOutlined style={{ ...ICON_STYLE, color: '#94a3b8' }} data-testid="share-icon-file" />;
}

const STATUS_COLOUR: Record<ShareStatus, string> = {
  sharing: 'green',
  stopped: 'default',
  expired: 'orange',
};

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
        columns={[
          {
            title: t('share.content'),
            key: 'content',
            render: (_v, share) => (
              <Space>
                {share.coverUrl ? (
                  <img
                    src={share.coverUrl}
                    alt=""
                    width={48}
                    height={36}
                    style={{ objectFit: 'contain', borderRadius: 4, background: '#f1f4f9' }}
                  />
                ) : (
                  <TypeIcon type={share.firstItemType} />
                )}
                <span data-testid="share-row-names">
                  {share.itemCount === 0
                    ? t('share.nothingLeft')
                    : share.itemCount > share.itemNames.length
                      ? t('share.itemsMore', {
                          names: share.itemNames.join('、'),
                          count: String(share.itemCount),
                        })
                      : share.itemNames.join('、')}
                </span>
              </Space>
            ),
          },
          {
            title: t('share.status'),
            dataIndex: 'status',
            width: 100,
            render: (status: ShareStatus) => (
              <Tag color={STATUS_COLOUR[status]} data-testid="share-status">
                {t(`share.statusName.${status}`)}
              </Tag>
            ),
          },
          {
            title: t('share.password'),
            dataIndex: 'password',
            width: 100,
            render: (password: string | null) =>
              password ? <Typography.Text code>{password}</Typography.Text> : t('share.public'),
          },
          {
            title: t('share.createdAt'),
            dataIndex: 'createdAt',
            width: 150,
            render: (at: string) => formatDate(at),
          },
          {
            title: t('share.expires'),
            dataIndex: 'expiresAt',
            width: 150,
            render: (at: string | null) => (at ? formatDate(at) : t('share.permanent')),
          },
          {
            title: t('share.counts'),
            key: 'counts',
            width: 120,
            render: (_v, share) =>
              t('share.countsValue', {
                views: String(share.viewCount),
                downloads: String(share.downloadCount),
              }),
          },
          {
            title: t('accounts.actions'),
            key: 'actions',
            width: 170,
            fixed: 'right',
            render: (_v, share) => (
              <Space size={0}>
                <Button
                  type="link"
                  size="small"
                  icon={<CopyOutlined />}
                  disabled={share.status !== ShareStatus.sharing}
                  onClick={() => void copy(shareText(t, absoluteShareUrl(share.url), share.password))}
                >
                  {t('share.copy')}
                </Button>
                <Popconfirm
                  title={t('share.cancelConfirm')}
                  okText={t('share.cancel')}
                  cancelText={t('common.cancel')}
                  okButtonProps={{
                    danger: true,
                    ...testId('share-cancel-ok'),
                  }}
                  disabled={share.status !== ShareStatus.sharing}
                  onConfirm={() => stop(share)}
                >
                  <Button
                    type="link"
                    size="small"
                    danger
                    icon={<StopOutlined />}
                    disabled={share.status !== ShareStatus.sharing}
                    data-testid="share-cancel"
                  >
                    {t('share.stop')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
        footer={loadMoreTableFooter(shares, t('share.more'))}
      />
    </Space>
  );
}
