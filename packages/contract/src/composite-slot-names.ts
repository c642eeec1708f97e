import type { FillRule } from './composite';
import type { Language } from './languages';

/**
 * How an image slot without a label of its own is named to people (issue 39 item 4): by what it
 * holds — the view (its completeness name, else its code), the tag, or the index — in the reader's
 * language, never by the block's random id (`oqpx7z 2`). The web's preview, the server's exact
 * preview, the plan's "missing" column and the job results all name slots with this.
 */
export interface SlotNaming {
  lang: Language;
  /** The completeness view's name of each code (正面 for `front`); absent: the code. */
  viewNames?: ReadonlyMap<string, string>;
  /** Tag names by id; absent: the id. */
  tagNames?: ReadonlyMap<number, string>;
}

interface SlotWords {
  view: (name: string) => string;
  tag: (name: string) => string;
  nth: (n: number) => string;
  fixed: string;
}

const capitalised = (name: string) => name.charAt(0).toLocaleUpperCase('en') + name.slice(1);

const WORDS: Record<'zh' | 'en' | 'ja' | 'ko' | 'de', SlotWords> = {
  zh: {
    view: (n) => `${n} 图片`,
    tag: (n) => `${n} 标签图片`,
    nth: (n) => `第 ${n} 张图片`,
    fixed: '固定图片',
  },
  en: {
    view: (n) => `${capitalised(n)} image`,
    tag: (n) => `${capitalised(n)} tag image`,
    nth: (n) => `Image ${n}`,
    fixed: 'Fixed image',
  },
  ja: { view: (n) => `${n} 画像`, tag: (n) => `${n} タグ画像`, nth: (n) => `画像 ${n}`, fixed: '固定画像' },
  ko: {
    view: (n) => `${n} 이미지`,
    tag: (n) => `${n} 태그 이미지`,
    nth: (n) => `이미지 ${n}`,
    fixed: '고정 이미지',
  },
  de: {
    view: (n) => `Bild ${n}`,
    tag: (n) => `Bild mit Tag ${n}`,
    nth: (n) => `Bild ${n}`,
    fixed: 'Festes Bild',
  },
};

const wordsOf = (lang: Language): SlotWords => WORDS[lang as keyof typeof WORDS] ?? WORDS.en;

/** What a rule holds, by name: `front` → 正面 (the view's name), a tag id → its name, n → n. */
export function ruleSubject(rule: FillRule, naming: SlotNaming): string {
  if (rule.kind === 'view') return naming.viewNames?.get(rule.code) ?? rule.code;
  if (rule.kind === 'tag') return naming.tagNames?.get(rule.tagId) ?? `#${rule.tagId}`;
  return String(rule.n);
}

/** A slot named by its rule: `正面 图片`, `Front image`, `第 2 张图片`, `Image 2`. */
export function ruleSlotName(rule: FillRule, naming: SlotNaming): string {
  const words = wordsOf(naming.lang);
  if (rule.kind === 'nth') return words.nth(rule.n);
  const subject = ruleSubject(rule, naming);
  return rule.kind === 'view' ? words.view(subject) : words.tag(subject);
}

/** A fixed block's name when it has no label. */
export function fixedSlotName(lang: Language): string {
  return wordsOf(lang).fixed;
}

/** The key two slots share when they hold the same thing (`view:detail`). */
export function ruleKey(rule: FillRule): string {
  if (rule.kind === 'view') return `view:${rule.code}`;
  if (rule.kind === 'tag') return `tag:${rule.tagId}`;
  return `nth:${rule.n}`;
}
