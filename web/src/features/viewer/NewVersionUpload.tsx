import type { FileDetail } from '@dam/contract';
import { App } from 'antd';
import { type Ref, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PickedFile } from '../upload';
import { pickFiles, problemText } from '../upload';
// Loaded when a new version is picked, as from the upload button: upload's index stays light for the
// home page, which imports it (issue 41 item 3).
import { BatchUploadDialog } from '../upload/lazy';
import { useSmallerCopyCheck } from './smallerCopy';

/**
 * The viewer's "new version" (SPEC §5): the hidden file input the toolbar clicks, then the upload
 * dialog for the picked files, named as the file shown and asked about smaller copies first.
 */
export function NewVersionUpload({
  inputRef,
  file,
}: {
  inputRef: Ref<HTMLInputElement>;
  file: FileDetail | undefined;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [newVersion, setNewVersion] = useState<PickedFile[] | null>(null);
  const smallerCopy = useSmallerCopyCheck(file as FileDetail);
  return (
    <>
      <input
        ref={inputRef}
        type="file"
        multiple
        hidden
        data-testid="new-version-input"
        onChange={(e) => {
          const result = pickFiles([...(e.target.files ?? [])]);
          if ('problem' in result) void message.error(problemText(t, result.problem));
          else if (result.files.length > 0) setNewVersion(result.files);
          e.target.value = '';
        }}
      />
      {newVersion && file && (
        <BatchUploadDialog
          files={newVersion}
          target={{ id: file.folderId ?? 'all', path: file.path }}
          fixedName={file.name}
          beforeStart={smallerCopy}
          {...(file.artNum ? { defaultArtNum: file.artNum } : {})}
          onClose={() => setNewVersion(null)}
        />
      )}
    </>
  );
}
