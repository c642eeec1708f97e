import { type ComponentType, lazy, type ReactNode, Suspense, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { loadFeatureStrings } from '../i18n';
import styles from './PageLoading.module.css';

/** A page module's component, by export name, or how to draw the page from the module. */
type PageOf<Module> =
  | { [Name in keyof Module]: Module[Name] extends ComponentType ? Name : never }[keyof Module]
  | ((module: Module) => ReactNode);

function draw<Module>(module: Module, render: PageOf<Module>): ReactNode {
  if (typeof render === 'function') return render(module);
  const Page = module[render] as ComponentType;
  return <Page />;
}

/**
 * A route's page, from its own chunk (issue 10 item 7): the sign-in and share-visitor pages stay
 * small, and the manage area, viewer and dialogs load when used. The router loads the chunks of
 * every route a URL matches at once, before it renders, so nothing suspends: a suspended page would
 * cost more than its chunk, since React keeps a fallback on screen at least 300 ms (issue 12 goal 4).
 */
export function page<Module>(load: () => Promise<Module>, render: PageOf<Module>) {
  return { element: async () => draw(await load(), render) };
}

/**
 * A page drawn with Ant Design and using the query cache: its chunk and AppShell load together, and
 * the page is rendered inside the shell.
 */
export function shellPage<Module>(load: () => Promise<Module>, render: PageOf<Module>) {
  return {
    element: async () => {
      const [{ AppShell }, module] = await Promise.all([
        import('../app/AppShell'),
        load(),
        loadFeatureStrings(),
      ]);
      return <AppShell>{draw(module, render)}</AppShell>;
    },
  };
}

/**
 * Shown while the first page's chunks load (drawn without Ant Design, which the sign-in page does
 * not load). On later navigations the page being left stays on screen until the next one is ready.
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
