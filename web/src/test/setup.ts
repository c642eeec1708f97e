// Only tests in jsdom (`// @vitest-environment jsdom`) render; Node tests skip this set-up.
export {};

if (typeof window !== 'undefined') {
  const { cleanup, configure } = await import('@testing-library/react');
  const { afterEach } = await import('vitest');
  // Components are rendered without the signed-in layout's route, which loads the features' strings
  // in the app (i18n loadFeatureStrings).
  const { addFeatureStrings } = await import('../i18n');
  addFeatureStrings((await import('../i18n/zh-app')).default);

  // Ant Design reads media queries and element sizes that jsdom does not implement.
  if (!window.matchMedia) {
    window.matchMedia = (query: string) =>
      ({
        matches: false,
        media: query,
        onchange: null,
        addListener: () => {},
        removeListener: () => {},
        addEventListener: () => {},
        removeEventListener: () => {},
        dispatchEvent: () => false,
      }) as MediaQueryList;
  }
  if (!window.ResizeObserver) {
    window.ResizeObserver = class {
      observe() {}
      unobserve() {}
      disconnect() {}
    } as unknown as typeof ResizeObserver;
  }

  // findBy*/waitFor give up after 1 s by default: too short for antd validation under CI load.
  configure({ asyncUtilTimeout: 5_000 });

  afterEach(() => cleanup());
}
