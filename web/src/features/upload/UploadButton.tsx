import { CloudUploadOutlined, FileAddOutlined, FolderAddOutlined } from '@ant-design/icons';
import { App, Button, Dropdown } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyDialog } from '../../ui/lazyPage';
import type { UploadTarget } from './BatchUploadDialog';
import { DropOverlay } from './DropOverlay';
import type { DroppedFile } from './engine/droppedFiles';
import { type PickedFile, pickFiles } from './engine/pickFiles';
import { problemText } from './problemText';
import { useDropUpload } from './useDropUpload';

const BatchUploadDialog = lazyDialog(async () => (await import('./BatchUploadDialog')).BatchUploadDialog);

/**
 * SPEC §2 upload type choice (files or a folder), then the batch upload dialog. Files and folders
 * dragged onto the listing open the same dialog for this folder (issue 39: drag and drop).
 */
export function UploadButton({ target }: { target: UploadTarget }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const [picked, setPicked] = useState<PickedFile[] | null>(null);
  // Controlled, so that choosing an entry closes the hover menu instead of leaving it over the dialog.
  const [menuOpen, setMenuOpen] = useState(false);

  const onPick = (list: readonly (File | DroppedFile)[]) => {
    const result = pickFiles(list);
    if ('problem' in result) void message.error(problemText(t, result.problem));
    else if (result.files.length === 0) void message.warning(t('upload.noFiles'));
    else {
      setMenuOpen(false);
      setPicked(result.files);
    }
  };
  const dragging = useDropUpload(picked === null, onPick);

  return (
    <>
      <Dropdown
        trigger={['hover', 'click']}
        open={menuOpen && picked === null}
        onOpenChange={setMenuOpen}
        menu={{
          items: [
            { key: 'files', icon: <FileAddOutlined />, label: t('upload.files') },
            { key: 'folder', icon: <FolderAddOutlined />, label: t('upload.folder') },
          ],
          onClick: ({ key }) => {
            setMenuOpen(false);
            (key === 'folder' ? folderInput : filesInput).current?.click();
          },
        }}
      >
        <Button icon={<CloudUploadOutlined />} data-testid="upload-button">
          {t('upload.button')}
        </Button>
      </Dropdown>
      <input
        ref={filesInput}
        type="file"
        multiple
        hidden
        data-testid="upload-files-input"
        onChange={(e) => {
          onPick([...(e.target.files ?? [])]);
          e.target.value = '';
        }}
      />
      <input
        ref={folderInput}
        type="file"
        multiple
        hidden
        data-testid="upload-folder-input"
        {...({ webkitdirectory: '' } as Record<string, string>)}
        onChange={(e) => {
          onPick([...(e.target.files ?? [])]);
          e.target.value = '';
        }}
      />
      {dragging && <DropOverlay path={target.path} />}
      {picked && <BatchUploadDialog files={picked} target={target} onClose={() => setPicked(null)} />}
    </>
  );
}
