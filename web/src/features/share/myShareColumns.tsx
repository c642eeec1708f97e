import {
  CopyOutlined,
  FileImageOutlined,
  FileOutlined,
  FolderFilled,
  StopOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import { ItemType, type MyShare, ShareStatus } from '@dam/contract';
import { Button, Popconfirm, Space, type TableColumnsType, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { formatDate } from '../../ui/format';
import { testId } from '../../ui/testId';

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

interface MyShareColumnsOptions {
  t: TFunction;
  onCopy: (share: MyShare) => void;
  /** Returns the stop's promise: Popconfirm keeps its OK button loading until it settles. */
  onStop: (share: MyShare) => Promise<void>;
}

/** The columns of /myshare: content, state, password, dates, counts, copy and stop. */
export function myShareColumns({ t, onCopy, onStop }: MyShareColumnsOptions): TableColumnsType<MyShare> {
  return [
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
            {share.collectionName !== null
              ? t('share.collection', { name: share.collectionName })
              : share.itemCount === 0
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
            onClick={() => onCopy(share)}
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
            onConfirm={() => onStop(share)}
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
  ];
}
