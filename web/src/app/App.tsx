import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import { Suspense, useEffect } from 'react';
import { RouterProvider } from 'react-router';
import { setNotifier } from '../api/notify';
import { antdLocale } from '../i18n';
import { PageLoading } from './lazyPage';
import { router } from './router';

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
});

/** Hands Ant Design's themed message API to code outside React (the API client). */
function NotifierBridge() {
  const { message } = AntApp.useApp();
  useEffect(
    () =>
      setNotifier(
        (text) => void message.error(text),
        (text) => void message.success(text),
      ),
    [message],
  );
  return null;
}

export function App() {
  return (
    <ConfigProvider
      locale={antdLocale()}
      theme={{ token: { colorPrimary: '#1d4ed8', borderRadius: 8, fontSize: 14 } }}
    >
      <AntApp>
        <NotifierBridge />
        <QueryClientProvider client={queryClient}>
          <Suspense fallback={<PageLoading />}>
            <RouterProvider router={router} />
          </Suspense>
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
