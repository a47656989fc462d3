import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import rosetta from 'rosetta';
import enGB from '../../locales/en-GB.json';
import ptPT from '../../locales/pt-PT.json';
import type { Locale } from '../../machines/session';
import { DEFAULT_LOCALE, storeLocale } from './locales';

const dictionary = rosetta<typeof ptPT>({ 'pt-PT': ptPT, 'en-GB': enGB });
dictionary.locale(DEFAULT_LOCALE);

export type Translate = (key: string, params?: Record<string, string | number>) => string;

const isTable = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Adds a lazy screen's own strings (docs/decisions/0074): they load with its chunk, not with the first
 * page. A screen's own namespaces are added whole; a namespace the first load has too (`errorMessages`:
 * the refusals only that screen's calls can meet) is merged into it, key by key.
 */
export function addMessages(tables: Record<Locale, Record<string, unknown>>): void {
  for (const [lang, table] of Object.entries(tables)) {
    const current = (dictionary.table(lang) ?? {}) as Record<string, unknown>;
    const merged = Object.fromEntries(
      Object.entries(table).map(([namespace, value]) => {
        const existing = current[namespace];
        return [namespace, isTable(existing) && isTable(value) ? { ...existing, ...value } : value];
      }),
    );
    dictionary.set(lang, merged as typeof ptPT);
  }
}

/** For code outside React (query cache, toasts): always the locale currently shown. */
export const translate: Translate = (key, params) => dictionary.t(key, params);

/** A translation function for one language, whatever the console shows. */
export const translateIn =
  (lang: Locale): Translate =>
  (key, params) =>
    dictionary.t(key, params, lang);

/** The text of a key in every language, so what is typed in either finds it (the palette's words). */
export const translateEvery = (key: string): string[] =>
  (['pt-PT', 'en-GB'] as const).map((lang) => translateIn(lang)(key));

/** A synonyms key's comma-separated words, in every language (`palette.synonyms.*`). */
export const everySynonym = (key: string): string[] =>
  translateEvery(key).flatMap((list) => list.split(',').map((word) => word.trim()));

interface I18nValue {
  locale: Locale;
  t: Translate;
  setLocale(locale: Locale): void;
}

const I18nContext = createContext<I18nValue | null>(null);

export function I18nProvider({ initial, children }: { initial: Locale; children: ReactNode }) {
  const [locale, setLocaleState] = useState<Locale>(() => {
    dictionary.locale(initial);
    return initial;
  });

  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);

  const setLocale = useCallback((next: Locale) => {
    dictionary.locale(next);
    storeLocale(next);
    setLocaleState(next);
  }, []);

  // A fresh `t` per locale makes consumers re-render when the language changes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: locale is the cache key on purpose
  const t = useMemo<Translate>(() => (key, params) => dictionary.t(key, params), [locale]);
  const value = useMemo(() => ({ locale, t, setLocale }), [locale, t, setLocale]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18nValue {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n outside I18nProvider');
  return value;
}
