import { type Item, ItemType } from '@dam/contract';
import { App } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { filesApi, useInvalidateFiles, useToggleFavourite } from '../../api/items';
import { notifySuccess } from '../../api/notify';
import { useMoveItems } from '../../ui/useMoveItems';
import { DownloadDialog } from '../download/lazy';
import { ShareDialog } from '../share/lazy';
import type { ItemAction } from './ItemCard';

/** Open, move, delete, favourite, download and share, for one item or a selection, with their dialogs. */
export function useItemActions(
  options: {
    onEditFolder?: (folder: Item) => void;
    onOpenFile?: (file: Item) => void;
    onDone?: () => void;
  } = {},
) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const invalidate = useInvalidateFiles();
  const favourite = useToggleFavourite();
  const moveItems = useMoveItems(() => options.onDone?.());
  const [downloading, setDownloading] = useState<Item[] | null>(null);
  const [sharing, setSharing] = useState<Item[] | null>(null);

  const remove = (items: Item[]) =>
    modal.confirm({
      title: t('files.confirmDeleteTitle', { count: items.length }),
      content: t('files.confirmDeleteContent'),
      okText: t('common.delete'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: async () => {
        await filesApi.remove(items);
        notifySuccess(t('files.deletedOk'));
        await invalidate();
        options.onDone?.();
      },
    });

  const run = (action: ItemAction, item: Item) => {
    if (action === 'open') {
      if (item.type === ItemType.folder) void navigate(`/allfiles/${item.id}`);
      else options.onOpenFile?.(item);
      return;
    }
    if (action === 'edit') options.onEditFolder?.(item);
    if (action === 'move') moveItems.move([item]);
    if (action === 'delete') remove([item]);
    if (action === 'favourite') favourite.mutate(item);
    if (action === 'download') setDownloading([item]);
    if (action === 'share') setSharing([item]);
  };

  const dialogs = (
    <>
      {downloading && <DownloadDialog items={downloading} onClose={() => setDownloading(null)} />}
      {sharing && <ShareDialog items={sharing} onClose={() => setSharing(null)} />}
      {moveItems.dialog}
    </>
  );

  return {
    run,
    /** Asks where to and moves (only the ids are needed: the viewer moves the file it shows). */
    move: moveItems.move,
    download: (items: Item[]) => setDownloading(items),
    share: (items: Item[]) => setSharing(items),
    remove,
    favourite: async (items: Item[]) => {
      for (const item of items.filter((i) => !i.collected)) await filesApi.collect(item.id);
      await invalidate();
      options.onDone?.();
    },
    dialogs,
  };
}
