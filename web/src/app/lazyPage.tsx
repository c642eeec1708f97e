import { type ComponentType, lazy, Suspense, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './PageLoading.module.css';

/**
 * A page loaded with its own chunk the first time it is shown (issue 10 item 7): the sign-in and
 * share-visitor pages stay small, and the manage area, viewer and dialogs load when used.
 */
export function lazyPage<Module, Name extends keyof Module>(load: () => Promise<Module>, name: Name) {
  return lazy(async () => ({ default: (await load())[name] as Module[Name] & ComponentType<object> }));
}

/**
 * A page drawn with Ant Design and using the query cache: its chunk and AppShell load together, at
 * once rather than one after the other, and the page is rendered inside the shell.
 */
export function shellPage<Module, Name extends keyof Module>(load: () => Promise<Module>, name: Name) {
  return lazy(async () => {
    const [{ AppShell }, module] = await Promise.all([import('./AppShell'), load()]);
    const Page = module[name] as ComponentType;
    return {
      default: function InAppShell() {
        return (
          <AppShell>
            <Page />
          </AppShell>
        );
      },
    };
  });
}

/**
 * Shown while the first page's chunk loads (drawn without Ant Design, which the sign-in page does
 * not load). Later navigations run in a transition, so the page being left stays on screen until
 * the next one is ready instead of flashing this.
 */
export function PageLoading() {
  const { t } = useTranslation();
  return (
    <div className={styles.page} data-testid="page-loading">
      <span className={styles.spinner} role="progressbar" aria-label={t('common.loading')} />
    </div>
  );
}

/**
 * A dialog loaded with its own chunk the first time it is shown (issue 10 item 7); nothing is drawn
 * in its place while it loads. One with an `open` prop is mounted when first opened and then stays
 * mounted, so it opens and closes as before; one without is shown whenever it is rendered.
 */
export function lazyDialog<Props extends object>(load: () => Promise<ComponentType<Props>>) {
  const Dialog = lazy(async () => ({ default: await load() }));
  // biome-ignore lint/correctness/noComponentHookFactories: called once per dialog at module level, like lazy()
  return function LazyDialog(props: Props) {
    const opened = useRef(false);
    if ((props as { open?: boolean }).open !== false) opened.current = true;
    if (!opened.current) return null;
    return (
      <Suspense fallback={null}>
        <Dialog {...props} />
      </Suspense>
    );
  };
}
