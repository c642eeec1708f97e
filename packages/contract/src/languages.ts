/**
 * Interface languages. Every request carries one in the `lang` header; Chinese is the
 * default and the fallback for anything missing in another language (SPEC §1).
 */
export const LANGUAGES = ['zh', 'en', 'ja', 'ko', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'zh';
/** The top-bar language choice offers only these two (SPEC §1). */
export const TOP_BAR_LANGUAGES = ['zh', 'en'] as const satisfies readonly Language[];

/** Reads a `lang` header value such as `en`, `en-US` or `zh-CN`; unknown values fall back to zh. */
export function parseLanguage(value: string | null | undefined): Language {
  const base = (value ?? '').trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return (LANGUAGES as readonly string[]).includes(base) ? (base as Language) : DEFAULT_LANGUAGE;
}
