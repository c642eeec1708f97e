import { DeleteOutlined } from '@ant-design/icons';
import { App, Button, Popconfirm } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * A row's delete action: a small red icon button asking `title` first, then `onDelete`, then
 * "deleted". An error of `onDelete` is shown by the API layer, as everywhere.
 */
export function DeleteConfirmButton({
  title,
  onDelete,
  testId,
}: {
  title: string;
  onDelete: () => Promise<unknown>;
  testId: string;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (
    <Popconfirm
      title={title}
      okText={t('common.delete')}
      cancelText={t('common.cancel')}
      okButtonProps={{ danger: true }}
      onConfirm={async () => {
        await onDelete();
        void message.success(t('common.deleteOk'));
      }}
    >
      <Button
        type="link"
        size="small"
        danger
        icon={<DeleteOutlined />}
        aria-label={t('common.delete')}
        data-testid={testId}
      />
    </Popconfirm>
  );
}
