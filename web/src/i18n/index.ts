import { DEFAULT_LANGUAGE, type Language, parseLanguage, type TOP_BAR_LANGUAGES } from '@dam/contract';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import type zhApp from './zh-app';
import zhCore from './zh-core';

const STORAGE_KEY = 'lang';

/** The interface language: stored locally, Chinese by default (SPEC §1). */
export function currentLanguage(): Language {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    return stored ? parseLanguage(stored) : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

/** Stores the choice and reloads, as SPEC §1 asks, so every string and date follows at once. */
export function chooseLanguage(language: (typeof TOP_BAR_LANGUAGES)[number]): void {
  localStorage.setItem(STORAGE_KEY, language);
  window.location.reload();
}

const english = currentLanguage() === 'en';

// Chinese is the default and the fallback: the entry has the sign-in pages' and the shell's strings,
// the features' come with the signed-in layout (loadFeatureStrings()). English is loaded only when
// chosen, so that Chinese pages do not download it (issue 10 item 7): its sign-in and visitor part
// by loadLanguage() before the first render, its features' part with the signed-in layout.
void i18n.use(initReactI18next).init({
  resources: { zh: { translation: zhCore } },
  lng: english ? 'en' : 'zh',
  fallbackLng: 'zh',
  interpolation: { escapeValue: false },
  returnNull: false,
});
document.documentElement.lang = english ? 'en' : 'zh-CN';

/**
 * The chosen language's strings when they are not Chinese: main.tsx awaits this before rendering.
 * (Ant Design's own strings and the dates' language are set in AppShell.)
 */
export async function loadLanguage(): Promise<void> {
  if (!english) return;
  const { default: enCore } = await import('./en-core');
  i18n.addResourceBundle('en', 'translation', enCore, true, false);
}

/**
 * The features' strings in the chosen language, fetched with the signed-in layout
 * (lazyPage.shellPage): the sign-in and visitor pages do not download them. Only that language's:
 * the English table has every key of the Chinese one (keys.test.ts), so an English reader never
 * falls back to the Chinese features' strings and does not load them (issue 39, the home page's
 * weight: 18 kB gzipped).
 */
export async function loadFeatureStrings(): Promise<void> {
  if (english) {
    const { default: enApp } = await import('./en-app');
    i18n.addResourceBundle('en', 'translation', enApp, true, false);
  } else addFeatureStrings((await import('./zh-app')).default);
}

/** The Chinese strings of the signed-in features (loadFeatureStrings(); the unit tests' setup). */
export function addFeatureStrings(strings: typeof zhApp): void {
  i18n.addResourceBundle('zh', 'translation', strings, true, false);
}

export default i18n;
