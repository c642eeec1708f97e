import type { Item } from '@dam/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { filesApi, useInvalidateFiles } from '../api/items';
import { notifySuccess } from '../api/notify';
import { showApiError } from '../api/showApiError';
import { lazyDialog } from './lazyPage';
import { useConfirmShare } from './useConfirmShare';

const MoveDialog = lazyDialog(async () => (await import('./MoveDialog')).MoveDialog);

/**
 * Asks where to and moves items, confirming when the move would share them. Shared by the item
 * actions of the listings and the viewer's edit form, so neither feature needs the other.
 */
export function useMoveItems(onDone?: () => void) {
  const { t } = useTranslation();
  const invalidate = useInvalidateFiles();
  const confirmShare = useConfirmShare();
  const [moving, setMoving] = useState<Array<Pick<Item, 'id'>> | null>(null);

  const dialog = (
    <MoveDialog
      open={moving !== null}
      title={t('files.moveTo')}
      onCancel={() => setMoving(null)}
      onConfirm={async (target) => {
        try {
          await confirmShare((confirmed) =>
            filesApi.move({
              folderDataIdList: (moving ?? []).map((i) => i.id),
              targetFolderId: target,
              ...(confirmed ? { confirmShare: true } : {}),
            }),
          );
        } catch (error) {
          showApiError(error);
          throw error;
        }
        notifySuccess(t('files.movedOk'));
        setMoving(null);
        await invalidate();
        onDone?.();
      }}
    />
  );

  /** Only the ids are needed: the viewer moves the file it shows. */
  return { move: (items: Array<Pick<Item, 'id'>>) => setMoving(items), dialog };
}
