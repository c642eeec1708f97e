import { UserOutlined } from '@ant-design/icons';
import type { Item } from '@dam/contract';
import { Avatar, Button, Card, Empty, Result, Space, Spin, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../ui/format';
import { LoadMoreFooter } from '../../ui/LoadMoreFooter';
import { useNewShares } from '../share';
import { FileViewer } from '../viewer';
import styles from './files.module.css';
import { ItemCard } from './ItemCard';
import { useItemActions } from './useItemActions';

/**
 * /newShare (SPEC §2 latest shares): the newest live links whose items the caller can see, each
 * with who shared it and when, and those items in the usual cards (open, download, favourite).
 */
export function NewSharesPage() {
  const { t } = useTranslation();
  const shares = useNewShares();
  const [viewing, setViewing] = useState<{ items: Item[]; id: number } | null>(null);
  const links = useMemo(() => shares.data?.pages.flatMap((p) => p.list) ?? [], [shares.data]);
  // The viewer steps through the files of the link the opened one belongs to.
  const actions = useItemActions({
    onOpenFile: (file) => {
      const group = links.find((link) => link.items.some((i) => i.id === file.id));
      setViewing({ items: group?.items ?? [file], id: file.id });
    },
  });

  if (shares.isPending) {
    return (
      <div className={styles.empty}>
        <Spin size="large" />
      </div>
    );
  }
  if (shares.isError && links.length === 0) {
    return (
      <Result
        status="warning"
        title={t('common.loadFailed')}
        extra={<Button onClick={() => void shares.refetch()}>{t('common.retry')}</Button>}
      />
    );
  }
  return (
    <div data-testid="new-shares">
      <div className={styles.toolbar}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('nav.newShares')}
        </Typography.Title>
      </div>
      {links.length === 0 ? (
        <Empty description={t('share.emptyLatest')} style={{ marginTop: 64 }} />
      ) : (
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          {links.map((link) => (
            <Card
              key={link.id}
              size="small"
              data-testid="new-share"
              title={
                <Space>
                  <Avatar size="small" icon={<UserOutlined />} />
                  <span>{t('share.sharedBy', { name: link.ownerName })}</span>
                  <Typography.Text type="secondary">{formatDate(link.createdAt)}</Typography.Text>
                </Space>
              }
              extra={
                <Typography.Text type="secondary">
                  {link.expiresAt
                    ? t('share.expiresAt', { time: formatDate(link.expiresAt) })
                    : t('share.permanent')}
                  {link.itemCount > link.items.length &&
                    ` · ${t('share.moreItems', { count: String(link.itemCount - link.items.length) })}`}
                </Typography.Text>
              }
            >
              <div className={styles.cardWrap}>
                {link.items.map((item) => (
                  <ItemCard
                    key={item.id}
                    item={item}
                    size={160}
                    waterfall={false}
                    selected={false}
                    onSelect={() => undefined}
                    onAction={actions.run}
                  />
                ))}
              </div>
            </Card>
          ))}
          <LoadMoreFooter list={shares} label={t('share.more')} />
        </Space>
      )}
      {actions.dialogs}
      {viewing && <FileViewer items={viewing.items} startId={viewing.id} onClose={() => setViewing(null)} />}
    </div>
  );
}
