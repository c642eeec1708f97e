import { FileImageOutlined } from '@ant-design/icons';
import type { SimilarItem } from '@dam/contract';
import { Empty, Spin, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSimilarOfFile } from './api';
import { CLOSENESS_COLOUR, closenessOf } from './closeness';
import styles from './similar.module.css';

/**
 * The info panel's "similar images" (issue 17, plan §6): the file's near-duplicates with how close
 * each is, then the files nearest to it by colour. Its own chunk, loaded when the section opens.
 * Clicking one opens it in the viewer, with the two lists as what ← and → step through.
 */
export function SimilarSection({
  fileId,
  onOpen,
}: {
  fileId: number;
  onOpen: (list: SimilarItem[], id: number) => void;
}) {
  const { t } = useTranslation();
  const similar = useSimilarOfFile(fileId);
  if (similar.isPending) return <Spin size="small" />;
  if (similar.isError) return <Typography.Text type="secondary">{t('common.loadFailed')}</Typography.Text>;
  const { fingerprint, progress, near, byColour } = similar.data;
  const all = [...near, ...byColour];
  const open = (id: number) => onOpen(all, id);
  const compared = fingerprint === 'ready';
  return (
    <div data-testid="similar-body" data-fingerprint={fingerprint}>
      {!compared && (
        <Typography.Paragraph type="secondary" data-testid="similar-status">
          {t(`similar.status.${fingerprint}`)}
        </Typography.Paragraph>
      )}
      {progress && progress.done < progress.total && (
        <Typography.Paragraph type="secondary" data-testid="similar-progress">
          {t('similar.progress', { done: String(progress.done), total: String(progress.total) })}
        </Typography.Paragraph>
      )}
      {near.length > 0 ? (
        <div className={styles.similarGrid} data-testid="similar-near">
          {near.map((item) => (
            <SimilarTile key={item.id} item={item} onOpen={open} />
          ))}
        </div>
      ) : (
        compared && (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={t('similar.empty')}
            data-testid="similar-empty"
          />
        )
      )}
      <Typography.Text strong className={styles.similarHeading}>
        {t('similar.sameColours')}
      </Typography.Text>
      {byColour.length > 0 ? (
        <div className={styles.similarGrid} data-testid="similar-by-colour">
          {byColour.map((item) => (
            <SimilarTile key={item.id} item={item} onOpen={open} />
          ))}
        </div>
      ) : (
        <Typography.Paragraph type="secondary">{t('similar.noColours')}</Typography.Paragraph>
      )}
    </div>
  );
}

/** One similar file: its thumbnail, name and how close it is; a click opens it. */
export function SimilarTile({ item, onOpen }: { item: SimilarItem; onOpen: (id: number) => void }) {
  const { t } = useTranslation();
  const closeness = item.distance === null ? null : closenessOf(item.distance);
  return (
    <button
      type="button"
      className={styles.similarTile}
      onClick={() => onOpen(item.id)}
      aria-label={t('similar.open', { name: item.name })}
      title={`${item.path === '/' ? '' : item.path}/${item.name}`}
      data-testid="similar-item"
      data-id={item.id}
    >
      {item.compactUrl ? (
        <img src={item.compactUrl} alt={item.name} className={styles.similarThumb} loading="lazy" />
      ) : (
        <span className={styles.similarThumb}>
          <FileImageOutlined />
        </span>
      )}
      <span className={styles.similarName}>{item.name}</span>
      {closeness && item.distance !== null && (
        <Tooltip title={t('similar.distance', { distance: String(item.distance) })}>
          <Tag color={CLOSENESS_COLOUR[closeness]} className={styles.similarTag}>
            {t(`similar.${closeness}`)}
          </Tag>
        </Tooltip>
      )}
    </button>
  );
}
