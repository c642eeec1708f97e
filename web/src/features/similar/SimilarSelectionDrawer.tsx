import { type Item, ItemType, SIMILAR_SELECTION_MAX, type SimilarItem } from '@dam/contract';
import { useQuery } from '@tanstack/react-query';
import { Drawer, Empty, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { endpoints } from '../../api/endpoints';
import { SimilarTile } from './SimilarSection';
import styles from './similar.module.css';

/** The files of a selection whose similar images are looked up (folders have none). */
export const filesForSimilar = (items: Item[]) =>
  items.filter((item) => item.type !== ItemType.folder).slice(0, SIMILAR_SELECTION_MAX);

/**
 * The selection menu's "similar images" (issue 17, plan §6): per selected file, the files that look
 * like it among those the user may see. Its own chunk, loaded when opened; a click opens the match
 * in the viewer with that file's matches as what ← and → step through.
 */
export function SimilarSelectionDrawer({
  items,
  onOpen,
  onClose,
}: {
  items: Item[];
  onOpen: (list: SimilarItem[], id: number) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const files = filesForSimilar(items);
  const ids = files.map((item) => item.id);
  const answer = useQuery({
    queryKey: ['similar', 'selection', ids],
    queryFn: () => call(endpoints.similarOfSelection, { body: { folderDataIdList: ids } }),
    staleTime: 30_000,
  });
  const names = new Map(files.map((item) => [item.id, item.name]));
  const groups = answer.data?.groups ?? [];
  const withMatches = groups.filter((group) => group.near.length > 0);
  return (
    <Drawer
      open
      width={560}
      title={t('similar.selectionTitle', { count: files.length })}
      onClose={onClose}
      data-testid="similar-selection"
    >
      {answer.isPending ? (
        <Spin />
      ) : answer.isError ? (
        <Typography.Text type="secondary">{t('common.loadFailed')}</Typography.Text>
      ) : withMatches.length === 0 ? (
        <Empty description={t('similar.selectionNone')} />
      ) : (
        withMatches.map((group) => (
          <section
            key={group.folderDataId}
            data-testid="similar-selection-group"
            data-id={group.folderDataId}
          >
            <Typography.Title level={5}>{names.get(group.folderDataId) ?? ''}</Typography.Title>
            <div className={styles.similarGrid}>
              {group.near.map((item) => (
                <SimilarTile key={item.id} item={item} onOpen={(id) => onOpen(group.near, id)} />
              ))}
            </div>
          </section>
        ))
      )}
      {!answer.isPending && withMatches.length > 0 && withMatches.length < groups.length && (
        <Typography.Paragraph type="secondary">
          {t('similar.selectionRest', { count: groups.length - withMatches.length })}
        </Typography.Paragraph>
      )}
    </Drawer>
  );
}
