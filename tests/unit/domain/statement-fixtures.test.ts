// Every file of tests/fixtures/statements/real (public sample statements of several banks and the
// issue 27 repro files; sources in its SOURCES.md) through parseStatement, with what each must give.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseStatement } from '../../../domain/statements/detect';
import type { EntryKind, StatementFormat } from '../../../domain/statements/types';

const REAL = fileURLToPath(new URL('../../fixtures/statements/real/', import.meta.url));

interface Facts {
  format: StatementFormat;
  entries: number;
  /** Signed sum of the entries, cents. */
  sum: number;
  /** Each statement's account, in file order. */
  accounts: (string | null)[];
  /** `code@statement` (or `code@line` for errors of the file), in order. */
  errors: string[];
  skipped?: string[];
  /** Entries of each kind other than transfer/other, and the return reasons read. */
  returns?: (string | null)[];
  fees?: number;
}

const repeat = <T>(value: T, times: number): T[] => Array.from({ length: times }, () => value);

const FACTS: Record<string, Facts> = {
  'cmxl-multi-account.sta': {
    format: 'mt940',
    entries: 16,
    sum: 1232730,
    accounts: ['45050050/76198810', '10020030/1234567', 'BPHKPLPK/320000546101'],
    errors: [],
  },
  'betterplace-sepa-returns.sta': {
    format: 'mt940',
    entries: 97,
    sum: -926913590,
    // 26 statements of 20 accounts (several accounts have two or three statements).
    accounts: [
      ...['74600888', '77100888', '78300888', '79500888', '80100888', '80101888', '81300888', '81300888'],
      ...['82500888', '82500888', '83700888', '83700888', '84900888', '84900888', '84901888', '85000888'],
      ...['85000888', '85000888', '85001888', '86200888', '87400888', '91600888', '91601888', '98900888'],
      ...['99000888'],
    ]
      .map((account) => `50880050/01947${account}`)
      .concat('50880050/0194804000888'),
    errors: [],
    returns: repeat(null, 19),
  },
  'jejik-abnamro.sta': {
    format: 'mt940',
    entries: 10,
    sum: -34593,
    accounts: ['517852257', '517852257'],
    errors: ['BALANCE_MISMATCH@0', 'BALANCE_MISMATCH@1'],
  },
  'jejik-ing.sta': {
    format: 'mt940',
    entries: 7,
    sum: -4559,
    accounts: ['0001234567'],
    errors: ['BALANCE_MISMATCH@0'],
  },
  'jejik-rabobank-iban.sta': {
    format: 'mt940',
    entries: 4,
    sum: -7000,
    accounts: ['NL71RABO0123456789', 'NL71RABO0123456789'],
    errors: [],
  },
  'jejik-triodos.sta': {
    format: 'mt940',
    entries: 2,
    sum: -71570,
    accounts: ['TRIODOSBANK/0390123456'],
    errors: ['BALANCE_MISMATCH@0'],
  },
  'jejik-knab.sta': {
    format: 'mt940',
    entries: 3,
    sum: -626000,
    accounts: ['123456789', '123456789'],
    errors: ['BALANCE_MISMATCH@1'],
  },
  'mbank.sta': {
    format: 'mt940',
    entries: 3,
    sum: 3,
    accounts: ['PL29114010810000267002001002'],
    errors: [],
  },
  'asnb.sta': {
    format: 'mt940',
    entries: 8,
    sum: 5694,
    accounts: repeat('NL81ASNB9999999999', 31),
    errors: [],
  },
  'citi.sta': { format: 'mt940', entries: 5, sum: -114275, accounts: ['123456789'], errors: [] },
  'genkgo-camt053-v2-multi-statement.xml': {
    format: 'camt053',
    entries: 2,
    sum: 185,
    accounts: ['NL26VAYB8060476890', 'NL26VAYB8060476890'],
    errors: [],
  },
  'genkgo-camt053-v2-all-balance-types.xml': {
    format: 'camt053',
    entries: 1,
    sum: 885,
    accounts: ['CH2801234000123456789'],
    errors: ['BALANCE_MISMATCH@0'],
  },
  'genkgo-camt053-v8.xml': {
    format: 'camt053',
    entries: 1,
    sum: 885,
    accounts: ['NL26VAYB8060476890'],
    errors: ['BALANCE_MISMATCH@0'],
  },
  'genkgo-camt052-v4-pending.xml': {
    format: 'camt053',
    entries: 0,
    sum: 0,
    accounts: ['CH2801234000123456789'],
    errors: [],
    skipped: ['PENDING@0'],
  },
  'genkgo-camt054-v8.xml': {
    format: 'camt053',
    entries: 1,
    sum: -20000000,
    accounts: ['CH2801234000123456789'],
    errors: ['BATCH_NOT_EXPANDED@0'],
  },
  'made-here-cgd-nib-account-a.csv': {
    format: 'csv',
    entries: 3,
    sum: 124189,
    accounts: ['PT50003509990009876543280'],
    errors: [],
    fees: 2,
  },
  'made-here-cgd-nib-account-b.csv': {
    format: 'csv',
    entries: 3,
    sum: -458946,
    accounts: ['PT50003509990001234567870'],
    errors: [],
    fees: 2,
  },
  'made-here-cgd-complete.csv': {
    format: 'csv',
    entries: 5,
    sum: 1470854,
    accounts: ['PT50003509990009876543280'],
    errors: [],
    returns: ['AC04', 'MD07'],
    fees: 1,
  },
  'made-here-cgd-cut-inside-amount.csv': {
    format: 'csv',
    entries: 4,
    sum: 6001946,
    accounts: ['PT50003509990009876543280'],
    errors: ['ROW_TOO_SHORT@line 9'],
    returns: ['AC04', 'MD07'],
    fees: 1,
  },
  'made-here-mt940-two-accounts-return-fee.sta': {
    format: 'mt940',
    entries: 5,
    sum: -4505602,
    accounts: ['PT50003509990009876543280', 'PT50003509990001234567870'],
    errors: [],
    returns: ['AC04'],
    fees: 2,
  },
  'made-here-mt940-cut-inside-third-86.sta': {
    format: 'mt940',
    entries: 3,
    sum: -4530592,
    accounts: ['PT50003509990009876543280'],
    errors: ['MISSING_CLOSING_BALANCE@0'],
    returns: ['AC04'],
    fees: 1,
  },
};

const count = (kinds: EntryKind[], kind: EntryKind) => kinds.filter((k) => k === kind).length;

describe('real-world and repro statement files', () => {
  it('every file in the folder has its facts here', () => {
    const files = readdirSync(REAL).filter((f) => f !== 'SOURCES.md');
    expect(files.sort()).toEqual(Object.keys(FACTS).sort());
    expect(files.length).toBeGreaterThanOrEqual(12);
  });

  it.each(Object.entries(FACTS))('%s', (file, facts) => {
    const r = parseStatement(new Uint8Array(readFileSync(`${REAL}${file}`)));
    const kinds = r.entries.map((e) => e.kind);
    expect({
      format: r.format,
      entries: r.entries.length,
      sum: r.entries.reduce((s, e) => s + e.amountCents, 0),
      accounts: r.statements.map((s) => s.accountIban),
      errors: r.errors.map((e) => `${e.code}@${e.statement ?? `line ${e.line}`}`),
      skipped: r.skipped.map((s) => `${s.reason}@${s.statement}`),
      returns: r.entries.filter((e) => e.kind === 'return').map((e) => e.returnReason),
      fees: count(kinds, 'fee'),
    }).toEqual({ skipped: [], returns: [], fees: 0, ...facts });
    // The statements cover the entries, in order, each once.
    let next = 0;
    for (const s of r.statements) {
      expect(s.firstEntry).toBe(next);
      next += s.entryCount;
    }
    expect(next).toBe(r.entries.length);
  });
});
