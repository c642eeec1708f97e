import { App } from 'antd';
import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { type PickedFile, pickFiles } from './engine/pickFiles';
import { problemText } from './problemText';

/** The hidden file input behind "add more": adds the picked files to the batch, or says why not. */
export function MoreFilesInput({
  inputRef,
  files,
  onPicked,
}: {
  inputRef: Ref<HTMLInputElement>;
  files: PickedFile[];
  /** The batch with the picked files added. */
  onPicked: (files: PickedFile[]) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (
    <input
      ref={inputRef}
      type="file"
      multiple
      hidden
      onChange={(e) => {
        const result = pickFiles([...(e.target.files ?? [])], files);
        if ('problem' in result) void message.error(problemText(t, result.problem));
        else onPicked(result.files);
        e.target.value = '';
      }}
    />
  );
}
