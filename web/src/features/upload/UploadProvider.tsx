import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import {
  createContext,
  type ReactNode,
  useContext,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
} from 'react';
import { useTranslation } from 'react-i18next';
import { filesKeys } from '../../api/items';
import { uploadKeys } from './api';
import { httpUploadApi } from './engine/httpApi';
import { type ManagerSnapshot, UploadManager } from './engine/manager';
import { browserNetwork, xhrTransport } from './engine/transport';

const UploadContext = createContext<UploadManager | null>(null);

/**
 * One upload manager for the signed-in session: it survives navigation between screens, tells
 * the user about the network, and warns before the page is left mid-upload (SPEC §4).
 */
export function UploadProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  // Created once per provider (the constructor has no side effects), started and stopped by the
  // effect below: StrictMode's extra unmount and mount stop it and start it again.
  const [manager] = useState(
    () =>
      new UploadManager(httpUploadApi, xhrTransport, browserNetwork, () => {
        void queryClient.invalidateQueries({ queryKey: uploadKeys.all });
      }),
  );
  useEffect(() => manager.start(), [manager]);

  useEffect(() => {
    const names = new Map<number, string>();
    const stopEvents = manager.onEvent((event) => {
      for (const task of manager.snapshot().tasks) names.set(task.id, task.fileName);
      if (event.type === 'offline') void message.warning(t('upload.offline'));
      if (event.type === 'online') void message.success(t('upload.online'));
      if (event.type === 'network-error')
        void message.error(t('upload.timeout', { name: names.get(event.taskId) ?? '' }));
      if (event.type === 'failed')
        void message.error(t('upload.failed', { name: names.get(event.taskId) ?? '' }));
      if (event.type === 'finished') {
        void queryClient.invalidateQueries({ queryKey: filesKeys.all });
        void queryClient.invalidateQueries({ queryKey: uploadKeys.all });
      }
    });
    const beforeUnload = (event: BeforeUnloadEvent) => {
      if (!manager.hasActiveUploads()) return;
      event.preventDefault();
      event.returnValue = t('upload.leaveWarning');
    };
    window.addEventListener('beforeunload', beforeUnload);
    return () => {
      stopEvents();
      window.removeEventListener('beforeunload', beforeUnload);
    };
  }, [manager, message, queryClient, t]);

  return <UploadContext.Provider value={manager}>{children}</UploadContext.Provider>;
}

export function useUploadManager(): UploadManager {
  const manager = useContext(UploadContext);
  if (!manager) throw new Error('useUploadManager outside UploadProvider');
  return manager;
}

/** The manager's state, re-rendered on every change. */
export function useUploadState(): ManagerSnapshot {
  const manager = useUploadManager();
  const store = useMemo(() => {
    let snapshot = manager.snapshot();
    return {
      subscribe: (onChange: () => void) =>
        manager.subscribe((next) => {
          snapshot = next;
          onChange();
        }),
      get: () => snapshot,
    };
  }, [manager]);
  return useSyncExternalStore(store.subscribe, store.get);
}
