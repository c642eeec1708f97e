import type { UploadGroup } from '@dam/contract';
import { useTranslation } from 'react-i18next';
import { AddTagDialog } from '../tagging';
import { groupOf, type PickedFile } from './engine/pickFiles';
import { GROUPS, keyOf } from './UploadGroups';

/** The tags one group of the batch gives each of its files (SPEC §4 tagIdList). */
export function GroupTagsDialog({
  group,
  files,
  artNums,
  initial,
  onConfirm,
  onClose,
}: {
  group: UploadGroup;
  files: PickedFile[];
  artNums: Record<string, string>;
  initial: number[];
  onConfirm: (ids: number[]) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <AddTagDialog
      title={t('upload.groupTagsTitle', {
        group: t(GROUPS.find((g) => g.group === group)?.key ?? ''),
      })}
      initial={initial}
      artNums={files
        .filter((f) => groupOf(f.fileName) === group)
        .flatMap((f) => (artNums[keyOf(f)] ? [artNums[keyOf(f)] as string] : []))}
      onConfirm={onConfirm}
      onClose={onClose}
    />
  );
}
