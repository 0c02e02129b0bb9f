// The page's language: English, French or Simplified Chinese, from the
// Settings' choice or else the system's (navigator.languages). Every word
// the page shows comes from one catalogue per language (en.ts is the source
// of the keys; fr.ts and zh.ts have the same shape, so a missing key fails
// the type check), and numbers and dates are written for the language's
// locale (lib/format.ts reads i18n.locale).
import { en, type Messages } from './en';
import { fr } from './fr';
import { zh } from './zh';

export type { Messages } from './en';

export type Lang = 'en' | 'fr' | 'zh';
/** LANGS are the page's languages, in the order Settings lists them. */
export const LANGS: readonly Lang[] = ['en', 'fr', 'zh'];

export const catalogues: Record<Lang, Messages> = { en, fr, zh };

/** LOCALES are the Intl locales numbers and dates are written in. */
export const LOCALES: Record<Lang, string> = { en: 'en-US', fr: 'fr-FR', zh: 'zh-CN' };

/** LANG_NAMES are each language's name in itself (for the switch in Settings). */
export const LANG_NAMES: Record<Lang, string> = { en: 'English', fr: 'Français', zh: '简体中文' };

/** isLang tells one of the page's languages. */
export function isLang(v: unknown): v is Lang {
  return v === 'en' || v === 'fr' || v === 'zh';
}

/** systemLang is the first of the system's languages the page has
 * (fr-CA → fr, zh-Hans-CN → zh; Traditional Chinese too falls back to
 * Simplified, closer than English), else English. */
export function systemLang(langs?: readonly string[]): Lang {
  const list = langs ?? (typeof navigator !== 'undefined' ? (navigator.languages?.length ? navigator.languages : [navigator.language]) : []);
  for (const l of list) {
    const base = (l ?? '').toLowerCase().split(/[-_]/)[0];
    if (isLang(base)) return base;
  }
  return 'en';
}

class I18n {
  /** lang is the language on screen. */
  lang = $state<Lang>(systemLang());
  /** choice is what Settings hold: "" follows the system. */
  choice = $state<'' | Lang>('');

  /** m is the catalogue of the language on screen. */
  get m(): Messages {
    return catalogues[this.lang];
  }

  /** locale is the Intl locale of the language on screen. */
  get locale(): string {
    return LOCALES[this.lang];
  }
}

export const i18n = new I18n();

/** setLanguage applies a choice ("" or anything unknown: the system's
 * language) and names it on the document, so that the browser picks the
 * right fonts (CJK glyphs for zh) and hyphenation. */
export function setLanguage(choice: string | null | undefined, system?: readonly string[]): Lang {
  const c = isLang(choice) ? choice : '';
  i18n.choice = c;
  i18n.lang = c || systemLang(system);
  if (typeof document !== 'undefined') document.documentElement.lang = i18n.lang === 'zh' ? 'zh-CN' : i18n.lang;
  return i18n.lang;
}
