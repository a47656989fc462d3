/** The keys of one counted message, by CLDR plural category (pt-PT and en-GB use `one` and `other`). */
export interface PluralKeys {
  one: string;
  other: string;
}

const rules = new Map<string, Intl.PluralRules>();

/**
 * The key for `count` in `locale` by Intl plural rules ("1 linha", "2 linhas"): the translation table has
 * no plural forms of its own, so each counted message is two keys, named here in full.
 */
export function pluralKey(locale: string, count: number, keys: PluralKeys): string {
  let rule = rules.get(locale);
  if (!rule) {
    rule = new Intl.PluralRules(locale);
    rules.set(locale, rule);
  }
  return rule.select(count) === 'one' ? keys.one : keys.other;
}
