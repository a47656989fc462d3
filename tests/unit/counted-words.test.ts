import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 29 point 9: a message that puts a number before a counted word has one form per plural
 * category (`one`/`other`, or `_one`/`_other`), chosen by `Intl.PluralRules` (`src/i18n/plural.ts`).
 * Every other string of every locale file, its placeholders filled with 1, must not read "1 registos".
 */
const ONE_WITH_PLURAL =
  /\b1 (casos|liquidações|transferências|médicos|linhas|ficheiros|exportações|registos|selecionad[oa]s|movimentos|extratos|pacientes|utilizadores|feitos|cases|settlements|transfers|doctors|lines|files|exports|records|rows|entries|statements|patients|users)\b/;

type Tree = { [key: string]: string | Tree };
const leaves = (tree: Tree, prefix = ''): [string, string][] =>
  Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value]] : leaves(value, `${prefix}${key}.`),
  );
const isPluralForm = (key: string) => /(\.|_)(one|other)$/.test(key);

const folder = join(import.meta.dirname, '../../locales');
const files = readdirSync(folder).filter((name) => name.endsWith('.json'));

describe('counted words in the locale files', () => {
  it('cover both languages of every area', () => {
    expect(files).toEqual(expect.arrayContaining(['pt-PT.json', 'en-GB.json', 'finance.pt-PT.json']));
  });

  it.each(files)('%s: no "1" before a plural word outside a plural form', (name) => {
    const tree = JSON.parse(readFileSync(join(folder, name), 'utf8')) as Tree;
    const wrong = leaves(tree)
      .filter(([key]) => !isPluralForm(key))
      .map(([key, text]) => [key, text.replace(/\{\{\w+\}\}/g, '1')] as const)
      .filter(([, text]) => ONE_WITH_PLURAL.test(text));
    expect(wrong).toEqual([]);
  });

  it.each(files)('%s: each one form has its other form', (name) => {
    const keys = leaves(JSON.parse(readFileSync(join(folder, name), 'utf8')) as Tree).map(([key]) => key);
    const ones = keys.filter((key) => /(\.|_)one$/.test(key));
    expect(ones.filter((key) => !keys.includes(key.replace(/one$/, 'other')))).toEqual([]);
  });
});
