import type { Locale } from '../../machines/session';
import { readCookie, writeCookie } from '../lib/cookies';

export const LOCALES: readonly Locale[] = ['pt-PT', 'en-GB'];
export const DEFAULT_LOCALE: Locale = 'pt-PT';
export const LOCALE_COOKIE = 'i18n_redirected';
const LOCALE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

/** The `languages.` keys are built from LOCALES; the locale test reads this too. */
export const languageKey = (locale: Locale) => `languages.${locale}`;

export const isLocale = (value: unknown): value is Locale =>
  typeof value === 'string' && (LOCALES as readonly string[]).includes(value);

/** Picks the first supported language among the browser's, by primary subtag. */
export function detectLocale(languages: readonly string[]): Locale {
  for (const language of languages) {
    const exact = LOCALES.find((l) => l.toLowerCase() === language.toLowerCase());
    if (exact) return exact;
    const primary = language.split('-')[0]?.toLowerCase();
    const byPrimary = LOCALES.find((l) => l.split('-')[0] === primary);
    if (byPrimary) return byPrimary;
  }
  return DEFAULT_LOCALE;
}

/**
 * The cookie wins; without one, the browser language is honoured on `/` only (spec §2),
 * and remembered so later deep links agree with it.
 */
export function initialLocale(pathname: string, browserLanguages: readonly string[]): Locale {
  const stored = readCookie(LOCALE_COOKIE);
  if (isLocale(stored)) return stored;
  if (pathname !== '/') return DEFAULT_LOCALE;
  const detected = detectLocale(browserLanguages);
  storeLocale(detected);
  return detected;
}

export function storeLocale(locale: Locale): void {
  writeCookie(LOCALE_COOKIE, locale, { maxAgeSeconds: LOCALE_COOKIE_MAX_AGE });
}
