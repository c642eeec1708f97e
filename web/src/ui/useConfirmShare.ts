import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';

/**
 * SPEC §2 move dialog, second step: when the server answers SEF_03 (private items would become
 * shared), ask the user, and repeat the call with the confirmation.
 */
export function useConfirmShare() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  return async function run<T>(call: (confirmed: boolean) => Promise<T>): Promise<T> {
    try {
      return await call(false);
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'SEF_03') throw error;
      const agreed = await modal.confirm({
        title: t('files.confirmShareTitle'),
        content: t('files.confirmShareContent'),
        okText: t('common.confirm'),
        cancelText: t('common.cancel'),
      });
      if (!agreed) throw error;
      return call(true);
    }
  };
}
