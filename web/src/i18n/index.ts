import { DEFAULT_LANGUAGE, type Language, parseLanguage, type TOP_BAR_LANGUAGES } from '@dam/contract';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './en';
import zh from './zh';

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

export const resources = { zh: { translation: zh }, en: { translation: en } } as const;

void i18n.use(initReactI18next).init({
  resources,
  lng: currentLanguage() === 'en' ? 'en' : 'zh',
  fallbackLng: 'zh',
  interpolation: { escapeValue: false },
  returnNull: false,
});
dayjs.locale(currentLanguage() === 'en' ? 'en' : 'zh-cn');
document.documentElement.lang = currentLanguage() === 'en' ? 'en' : 'zh-CN';

export default i18n;
