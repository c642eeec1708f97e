import { Spin } from 'antd';
import { type ComponentType, lazy, Suspense, useRef } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A page loaded with its own chunk the first time it is shown (issue 10 item 7): the sign-in and
 * share-visitor pages stay small, and the manage area, viewer and dialogs load when used.
 */
export function lazyPage<Module, Name extends keyof Module>(load: () => Promise<Module>, name: Name) {
  return lazy(async () => ({ default: (await load())[name] as Module[Name] & ComponentType<object> }));
}

/**
 * Shown while the first page's chunk loads. Later navigations run in a transition, so the page
 * being left stays on screen until the next one is ready instead of flashing this.
 */
export function PageLoading() {
  const { t } = useTranslation();
  return (
    <div style={{ display: 'grid', placeItems: 'center', minHeight: '100vh' }} data-testid="page-loading">
      <Spin size="large" aria-label={t('common.loading')} />
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
