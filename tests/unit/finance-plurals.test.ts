import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pluralKey } from '../../src/i18n/plural';
import { enGB, ptPT } from '../support/messages';

type Tree = { [key: string]: string | Tree };
const LOCALES = { 'pt-PT': ptPT, 'en-GB': enGB } as const;
const lookup = (tree: unknown, key: string) =>
  key.split('.').reduce<unknown>((node, part) => (node as Tree)[part], tree) as string;
const fill = (template: string, values: Record<string, number>) =>
  template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => String(values[name] ?? whole));

/** The settlement screens' counted strings (issue 29 point 9) and the count each is chosen by. */
const COUNTED = [
  ['finance.process.totals', 'settlements'],
  ['finance.process.included', 'total'],
  ['finance.process.confirmMessage', 'count'],
  ['finance.process.settled', 'count'],
  ['settlementAdmin.bulkDeleteTitle', 'count'],
  ['settlementAdmin.bulkDeleteMessage', 'count'],
  ['settlementAdmin.bulkDeleted', 'count'],
] as const;

/** A count followed by a plural noun: "1 casos", "1 liquidações", "1 cases", "1 settlements". */
const ONE_WITH_PLURAL = /\b1 (casos|liquidações|cases|settlements)\b/;

describe('plurals on the settlement screens', () => {
  it('pick the one form for 1 only, in both languages (Intl.PluralRules)', () => {
    fc.assert(
      fc.property(fc.constantFrom('pt-PT', 'en-GB'), fc.nat(1_000_000), (locale, count) => {
        const key = pluralKey(locale, count, { one: 'one', other: 'other' });
        expect(key).toBe(count === 1 ? 'one' : 'other');
      }),
    );
  });

  it.each(Object.entries(LOCALES))('never say "1 casos" or "2 caso" in %s', (locale, messages) => {
    for (const [key, countedBy] of COUNTED) {
      for (const count of [0, 1, 2, 5]) {
        const values = { count, total: count, settlements: count, deleted: count };
        const chosen = pluralKey(locale, count, { one: `${key}_one`, other: `${key}_other` });
        const text = fill(lookup(messages, chosen), values);
        expect(text, `${key} (${countedBy}=${count})`).not.toMatch(ONE_WITH_PLURAL);
        if (count !== 1) expect(text).toMatch(/casos|liquidações|cases|settlements/);
      }
    }
  });
});
