import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/es/locale/en_US';
// The ES modules: antd/locale/* re-exports the CommonJS build, which would bundle a second copy.
import zhCN from 'antd/es/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { type ReactNode, useEffect, useState, useSyncExternalStore } from 'react';
import { setNotifier } from '../api/notify';
import './antd.css';
import '../ui/modalFit.css';
import { queryClient } from '../api/queryClient';
import { currentLanguage } from '../i18n';

const english = currentLanguage() === 'en';
// Dates are written only on the pages drawn here.
dayjs.locale(english ? 'en' : 'zh-cn');

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

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';
const reducedMotion = {
  subscribe(onChange: () => void) {
    const query = window.matchMedia(REDUCED_MOTION);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  },
  read: () => window.matchMedia(REDUCED_MOTION).matches,
};

/**
 * What the pages drawn with Ant Design need around them (the signed-in layout, the share visitor
 * page): its theme, its own strings in the interface language, its message API, and the query
 * cache. The sign-in page is drawn without any of it and does not load it (issue 10 item 7).
 */
/**
 * Text colours of at least 4.5:1 on white (WCAG 1.4.3, issue 39): Ant Design's grey for secondary
 * text and descriptions (rgba(0,0,0,0.45), 3.4:1) and its success, warning and error text
 * (#52c41a 2.3:1, #faad14 1.9:1, #ff4d4f 3.3:1) were too light to read. Links and link buttons
 * take Ant Design's info blue (#1677ff, 4.1:1) unless told otherwise, and danger buttons its error
 * red: both failed axe-core once a table held more than a few rows of them (My shares, the
 * duplicates report), so links take the primary blue (6.7:1) and errors a darker red (5.6:1).
 */
const READABLE_TEXT = {
  colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
  colorTextDescription: 'rgba(0, 0, 0, 0.6)',
  // A select's placeholder is read as its text (rgba(0,0,0,0.25) was 1.6:1): 4.7:1.
  colorTextPlaceholder: 'rgba(0, 0, 0, 0.55)',
  colorSuccessText: '#237804',
  // #ad6800 was 4.41:1, just under.
  colorWarningText: '#874d00',
  colorErrorText: '#cf1322',
  colorError: '#cf1322',
  colorLink: '#1d4ed8',
} as const;

export function AppShell({ children }: { children: ReactNode }) {
  // Someone who asked their system for less motion gets menus, dialogs and messages that appear
  // and go at once (WCAG 2.3.3), and it follows the setting when it changes.
  const motion = !useSyncExternalStore(reducedMotion.subscribe, reducedMotion.read);
  // Ant Design puts a motion provider around a ConfigProvider's children only once their setting
  // differs from the one above, and a page that gains that wrapper is mounted afresh: uploads in
  // progress would stop, dialogs close. An outer provider holding the opposite of the first
  // setting makes the inner one differ from the first render on, so the page keeps its shape
  // whatever the setting becomes.
  const [outerMotion] = useState(() => !motion);
  return (
    <ConfigProvider theme={{ zeroRuntime: true, token: { motion: outerMotion } }}>
      <ConfigProvider
        locale={english ? enUS : zhCN}
        theme={{
          zeroRuntime: true,
          token: { colorPrimary: '#1d4ed8', borderRadius: 8, fontSize: 14, motion, ...READABLE_TEXT },
        }}
      >
        <AntApp>
          <NotifierBridge />
          <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
        </AntApp>
      </ConfigProvider>
    </ConfigProvider>
  );
}
