import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { useUploadManager } from './UploadProvider';

/** Cancels uploads once the user confirms (their stored parts are deleted: SPEC §4). */
export function useCancelUploads() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const manager = useUploadManager();
  return (ids: number[]) =>
    modal.confirm({
      title: t('upload.confirmCancel', { count: ids.length }),
      okText: t('common.confirm'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: () => manager.cancel(ids),
    });
}
