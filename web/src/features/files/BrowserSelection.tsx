import { FunctionCode, type Item, ItemType, SIMILAR_SELECTION_MAX } from '@dam/contract';
import { useState } from 'react';
import { saveFile } from '../../api/client';
import { endpoints } from '../../api/endpoints';
import { functionCodesOf, useCurrentUser } from '../../auth/useCurrentUser';
import { AddToCollectionDialog } from '../collections/lazy';
import { type SelectionAction, SelectionBar } from './SelectionBar';
import type { useItemActions } from './useItemActions';
import type { useSelection } from './useSelection';

const idsOf = (items: Item[], folders: boolean) =>
  items.filter((i) => (i.type === ItemType.folder) === folders).map((i) => i.id);

/**
 * The selection's bar in a listing: the item actions on the selected items, the tag workbook for
 * tag managers, similar images for up to 50 files, and adding them to a collection (its dialog
 * lives here).
 */
export function BrowserSelection({
  selected,
  all,
  selection,
  actions,
  onTag,
  onSimilar,
  extraActions,
  withDelete = true,
}: {
  selected: Item[];
  all: Item[];
  selection: ReturnType<typeof useSelection>;
  actions: ReturnType<typeof useItemActions>;
  onTag: () => void;
  onSimilar: () => void;
  extraActions?: SelectionAction[];
  /** Offer "delete" (to the recycle bin): not on a collection's page, where it reads as "remove". */
  withDelete?: boolean;
}) {
  const { data: user } = useCurrentUser();
  const [collecting, setCollecting] = useState<Item[] | null>(null);
  const exportTags = () =>
    void saveFile(endpoints.exportTagWorkbook, {
      body: { folderDataIdList: idsOf(selected, false), folderIdList: idsOf(selected, true) },
    }).catch(() => {});
  return (
    <>
      <SelectionBar
        items={selected}
        onMove={() => actions.move(selected)}
        {...(withDelete ? { onDelete: () => actions.remove(selected) } : {})}
        onFavourite={() => void actions.favourite(selected)}
        onDownload={() => actions.download(selected)}
        onShare={() => actions.share(selected)}
        onTag={onTag}
        onExportTags={functionCodesOf(user).includes(FunctionCode.tag) ? exportTags : undefined}
        onSimilar={
          selected.some((i) => i.type !== ItemType.folder) && selected.length <= SIMILAR_SELECTION_MAX
            ? onSimilar
            : undefined
        }
        onCollect={() => setCollecting(selected)}
        {...(extraActions ? { extraActions } : {})}
        onClear={selection.clear}
        onSelectAll={() => selection.selectAll(all)}
      />
      {collecting && (
        <AddToCollectionDialog
          items={collecting}
          onDone={selection.clear}
          onClose={() => setCollecting(null)}
        />
      )}
    </>
  );
}
