import type { CompletenessColumn, CompletenessRow } from '@dam/contract';
import { App } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type PickedFile, pickFiles, problemText, type UploadTarget } from '../upload';
import { BatchUploadDialog } from '../upload/lazy';
import { acceptOf, filesForView, isOfFormat } from './cells';

/**
 * A missing cell's upload: `openMissing` asks for files of the cell's format, checks them, and
 * opens the upload dialog with the article number, the view's file name and the folder of the
 * article's files filled in. `element` is the hidden file input and the dialog.
 */
export function useMissingCellUpload() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const fileInput = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState<{ row: CompletenessRow; column: CompletenessColumn } | null>(null);
  const [upload, setUpload] = useState<{ files: PickedFile[]; target: UploadTarget; artNum: string } | null>(
    null,
  );

  const openMissing = (row: CompletenessRow, column: CompletenessColumn) => {
    setPending({ row, column });
    const input = fileInput.current;
    if (!input) return;
    input.accept = acceptOf(column.format);
    input.click();
  };

  const onPicked = (list: FileList | null) => {
    if (!list || !pending) return;
    const result = pickFiles([...list]);
    if ('problem' in result) return void message.error(problemText(t, result.problem));
    const picked = result.files;
    if (picked.length === 0) return void message.warning(t('upload.noFiles'));
    const wrong = picked.find((f) => !isOfFormat(f.fileName, pending.column.format));
    if (wrong)
      return void message.error(
        t('completeness.wrongFormat', { name: wrong.fileName, format: pending.column.format.toUpperCase() }),
      );
    setUpload({
      files: filesForView(picked, pending.row.artNum, pending.column),
      target: pending.row.target ?? { id: 'all', path: '/' },
      artNum: pending.row.artNum,
    });
  };

  const element = (
    <>
      <input
        ref={fileInput}
        type="file"
        hidden
        data-testid="completeness-file-input"
        onChange={(e) => {
          onPicked(e.target.files);
          e.target.value = '';
        }}
      />
      {upload && (
        <BatchUploadDialog
          files={upload.files}
          target={upload.target}
          defaultArtNum={upload.artNum}
          onClose={() => {
            setUpload(null);
            setPending(null);
          }}
        />
      )}
    </>
  );
  return { openMissing, element };
}
