import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STATEMENT_HISTORY_ACTIONS, STATEMENT_LINE_KINDS } from '../../contract/reconciliation';
import { SOURCE_IMPORT_PHASES } from '../../contract/source-import';
import { STATEMENT_IMPORT_PHASES } from '../../contract/statement-import';
import { AUDIT_ACTIONS, AUDIT_ENTITY_TYPES, STATEMENT_LINE_STATUSES } from '../../contract/statuses';
import { REASON_CODES } from '../../domain/sepa/reason-codes';
import { PROVIDER_CSV_FIELDS } from '../../domain/sources/provider-csv';
import { CSV_FIELDS, PARSE_ERROR_CODES } from '../../domain/statements/types';
import { REFUSAL_REASONS } from '../../machines/statement-import';
import { MAPPING_EDITOR_WORDS } from '../../src/components/MappingEditor/MappingEditor';
import { ERROR_CODES, VALIDATION_CODES } from '../../src/i18n/error-codes';
import { femaleKey, GENDERED_KEYS } from '../../src/i18n/gender';
import { LOCALES, languageKey } from '../../src/i18n/locales';
import { enGB, ptPT } from '../support/messages';

type Tree = { [key: string]: string | Tree };

function leafKeys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : leafKeys(value, `${prefix}${key}.`),
  );
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

const root = join(import.meta.dirname, '../..');
const read = (dirs: string[]) =>
  dirs.flatMap((d) => sourceFiles(join(root, d))).map((f) => readFileSync(f, 'utf8'));
const source = read(['src', 'machines']);
// The server renders e-mails from the same files, reading a subtree as an object (`ptPT.mail.verification`).
const serverSource = read(['server']);
const readAsObject = (key: string) => {
  const parent = key.slice(0, key.lastIndexOf('.'));
  const leaf = key.slice(key.lastIndexOf('.') + 1);
  return serverSource.some((text) => text.includes(`.${parent}`) && new RegExp(`\\.${leaf}\\b`).test(text));
};

/** Keys built at run time from these lists (`errorMessages.${code}` and the like). */
const dynamicKeys = [
  ...ERROR_CODES.map((code) => `errorMessages.${code}`),
  ...VALIDATION_CODES.map((code) => `validation.${code}`),
  ...LOCALES.map(languageKey),
  ...REASON_CODES.map((code) => `bankReasons.${code}`),
  ...GENDERED_KEYS.map(femaleKey),
  ...AUDIT_ACTIONS.map((code) => `auditActions.${code}`),
  ...AUDIT_ENTITY_TYPES.map((type) => `auditEntities.${type}`),
  ...STATEMENT_IMPORT_PHASES.map((phase) => `statements.import.phase.${phase}`),
  ...REFUSAL_REASONS.map((reason) => `statements.refused.${reason}`),
  ...CSV_FIELDS.map((field) => `statements.mapping.fields.${field}`),
  ...MAPPING_EDITOR_WORDS.map((word) => `statements.mapping.${word}`),
  ...MAPPING_EDITOR_WORDS.map((word) => `sources.mapping.${word}`),
  ...PROVIDER_CSV_FIELDS.map((field) => `sources.mapping.fields.${field}`),
  ...SOURCE_IMPORT_PHASES.map((phase) => `sources.import.phase.${phase}`),
  ...PARSE_ERROR_CODES.map((code) => `statements.parseErrors.${code}`),
  ...STATEMENT_LINE_KINDS.map((kind) => `statements.kind.${kind}`),
  ...STATEMENT_LINE_STATUSES.map((status) => `statements.status.${status}`),
  ...STATEMENT_HISTORY_ACTIONS.map((action) => `statements.history.${action}`),
  // An audit row's field names and values, looked up by the name the server wrote (src/kernel/audit-values.ts).
  ...leafKeys(enGB.auditFields as Tree, 'auditFields.'),
  ...leafKeys(enGB.auditValues as Tree, 'auditValues.'),
];

const en = leafKeys(enGB as Tree);
const pt = leafKeys(ptPT as Tree);
const namespaces = Object.keys(enGB).join('|');

/**
 * Every literal that looks like a translation key: any `t('…')` argument, and any quoted
 * dotted string starting with one of the locale files' namespaces (route tables, props).
 */
const literalKeys = new Set(
  source.flatMap((text) =>
    [
      ...text.matchAll(/\bt\(\s*['"`]([A-Za-z][\w-]*(?:\.[\w-]+)+)['"`]/g),
      ...text.matchAll(new RegExp(`['"\`]((?:${namespaces})\\.[\\w.-]+)['"\`]`, 'g')),
    ].map((m) => m[1] as string),
  ),
);

describe('locales', () => {
  it('have the same keys in en-GB and pt-PT', () => {
    expect(
      en.filter((k) => !pt.includes(k)),
      'missing in pt-PT',
    ).toEqual([]);
    expect(
      pt.filter((k) => !en.includes(k)),
      'missing in en-GB',
    ).toEqual([]);
  });

  it('have no empty translation', () => {
    for (const [name, tree] of [
      ['en-GB', enGB],
      ['pt-PT', ptPT],
    ] as const) {
      const empty = leafKeys(tree as Tree).filter((k) => {
        const value = k.split('.').reduce<unknown>((node, part) => (node as Tree)[part], tree);
        return typeof value !== 'string' || value.trim() === '';
      });
      expect(empty, name).toEqual([]);
    }
  });

  it('define every key the code uses', () => {
    const used = [...literalKeys, ...dynamicKeys];
    expect(used.length).toBeGreaterThan(50);
    expect(used.filter((k) => !en.includes(k))).toEqual([]);
  });

  it('hold no key the code never uses', () => {
    const used = new Set([...literalKeys, ...dynamicKeys]);
    expect(en.filter((k) => !used.has(k) && !readAsObject(k))).toEqual([]);
  });

  it('keep the specification strings verbatim in English', () => {
    const flat = (k: string) => k.split('.').reduce<unknown>((n, p) => (n as Tree)[p], enGB);
    expect(flat('errorMessages.fallback')).toBe('Something went wrong. Try again or contact our support');
    expect(flat('errorMessages.GENERIC_ERROR')).toBe('An error occurred, try again later');
    expect(flat('errorMessages.EMAIL_OR_PASSWORD_INVALID')).toBe(
      'Email or password is invalid or user not allowed',
    );
    expect(flat('validation.required')).toBe('This is required');
    expect(flat('validation.email')).toBe('Incorrect email format');
    expect(flat('errors.notFound')).toBe('This page could not be found');
    expect(flat('errors.backHome')).toBe('Back to the home page');
    expect(flat('app.titleTemplate')).toBe('{{product}} Admin Panel - v2');
  });
});
