import { describe, expect, it } from 'vitest';
import {
  BANK_REASON_CODES,
  isKnownReasonCode,
  REASON_CODES,
  reasonKey,
} from '../../../domain/sepa/reason-codes';
import { enGB, ptPT } from '../../support/messages';

const groups = { 'en-GB': enGB.bankReasons, 'pt-PT': ptPT.bankReasons } as Record<
  string,
  Record<string, string>
>;

describe('bank reason codes', () => {
  it('are four upper-case letters or digits, listed once', () => {
    for (const code of REASON_CODES) expect(code).toMatch(/^[A-Z0-9]{4}$/);
    expect(new Set(REASON_CODES).size).toBe(REASON_CODES.length);
  });

  it('include the EPC SCT reject and return codes and the ones the shared samples use', () => {
    const required = [
      'AC01',
      'AC04',
      'AC06',
      'AG01',
      'AG02',
      'AM04',
      'AM05',
      'BE04',
      'BE05',
      'CNOR',
      'DNOR',
      'DT01',
      'ED05',
      'FF01',
      'FOCR',
      'MD07',
      'MS02',
      'MS03',
      'RC01',
      'RR01',
      'RR02',
      'RR03',
      'RR04',
      'TM01',
      'NARR',
    ];
    expect(required.filter((c) => !isKnownReasonCode(c))).toEqual([]);
  });

  it.each(Object.keys(groups))(
    'have a non-empty description in %s for every code and nothing else',
    (locale) => {
      const group = groups[locale]!;
      expect(REASON_CODES.filter((c) => typeof group[c] !== 'string' || group[c]!.trim() === '')).toEqual([]);
      expect(Object.keys(group).filter((c) => !isKnownReasonCode(c))).toEqual([]);
    },
  );

  it('read AC04 as an account closed in both languages', () => {
    expect(groups['en-GB']!.AC04).toBe('Account closed');
    expect(groups['pt-PT']!.AC04).toBe('Conta encerrada');
  });

  it('give the locale key of a known code and none for an unknown one', () => {
    expect(reasonKey('AC04')).toBe('bankReasons.AC04');
    expect(reasonKey('ZZ99')).toBeNull();
    expect(reasonKey('toString')).toBeNull();
    expect(Object.keys(BANK_REASON_CODES)).toEqual(REASON_CODES);
  });
});
