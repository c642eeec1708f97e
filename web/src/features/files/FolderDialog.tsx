import type { Item } from '@dam/contract';
import { Button, Form, Input, type InputRef, Radio, Space, Typography } from 'antd';
import { useLayoutEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { filesApi, useInvalidateFiles } from '../../api/items';
import { FormModal } from '../../ui/FormModal';
import { folderNameProblem, nameProblemText } from '../../ui/format';
import { MoveDialog } from '../../ui/MoveDialog';
import { useConfirmShare } from '../../ui/useConfirmShare';
import { useFocusOnOpen } from '../../ui/useFocusOnOpen';

interface Props {
  open: boolean;
  /** Folder being edited; none = create. */
  folder: Item | null;
  /** Where a new folder goes, with its display path. */
  parent: { id: number | 'all'; path: string; private: boolean };
  onClose: () => void;
}

interface FolderForm {
  folderName: string;
  visibility: 'shared' | 'private';
}

/** SPEC §2 create / edit folder: name, and the location chosen with the folder picker. */
export function FolderDialog({ open, folder, parent, onClose }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FolderForm>();
  const nameField = useFocusOnOpen<InputRef>();
  const invalidate = useInvalidateFiles();
  const confirmShare = useConfirmShare();
  const [location, setLocation] = useState<{ id: number | 'all'; path: string } | null>(null);
  const [picking, setPicking] = useState(false);

  // Before the dialog is painted: a name typed into the field in the moment between paint and a
  // passive effect would be wiped by the reset and the save refused as empty.
  useLayoutEffect(() => {
    if (open) {
      form.setFieldsValue({ folderName: folder?.name ?? '', visibility: 'shared' });
      setLocation(null);
    }
  }, [open, folder, form]);

  const save = async (values: FolderForm) => {
    if (folder) {
      await confirmShare((confirmed) =>
        filesApi.updateFolder({
          folderDataId: folder.id,
          folderName: values.folderName.trim(),
          ...(location ? { parentId: location.id } : {}),
          ...(confirmed ? { confirmShare: true } : {}),
        }),
      );
    } else {
      await filesApi.createFolder({
        folderName: values.folderName.trim(),
        parentId: parent.id,
        ...(parent.private ? {} : { visibility: values.visibility }),
      });
    }
    await invalidate();
  };

  return (
    <FormModal<FolderForm>
      open={open}
      form={form}
      title={folder ? t('files.editFolder') : t('files.newFolder')}
      onSave={save}
      onClose={onClose}
      successText={folder ? t('common.saveOk') : t('files.createdOk')}
      saveTestId="folder-dialog-ok"
      afterOpenChange={nameField.afterOpenChange}
      formProps={{ requiredMark: false }}
      extra={
        <MoveDialog
          open={picking}
          title={t('files.location')}
          allowCreate={false}
          onCancel={() => setPicking(false)}
          onConfirm={async (target, path) => {
            setLocation({ id: target, path });
            setPicking(false);
          }}
        />
      }
    >
      <Form.Item
        name="folderName"
        label={t('files.folderName')}
        rules={[
          {
            validator: (_rule, value: string | undefined) => {
              const problem = folderNameProblem(value ?? '');
              return problem ? Promise.reject(new Error(nameProblemText(t, problem))) : Promise.resolve();
            },
          },
        ]}
      >
        <Input
          ref={nameField.ref}
          autoFocus
          placeholder={t('files.folderNamePlaceholder')}
          data-testid="folder-name-input"
        />
      </Form.Item>
      <Form.Item label={t('files.location')}>
        <Space>
          <Typography.Text code>{location?.path ?? (folder ? folder.path : parent.path)}</Typography.Text>
          {folder && <Button onClick={() => setPicking(true)}>{t('files.choose')}</Button>}
        </Space>
      </Form.Item>
      {!folder && !parent.private && (
        <Form.Item name="visibility" label={t('files.visibility')} extra={t('files.privateHint')}>
          <Radio.Group
            options={[
              { value: 'shared', label: t('files.shared') },
              { value: 'private', label: t('files.private') },
            ]}
          />
        </Form.Item>
      )}
    </FormModal>
  );
}
