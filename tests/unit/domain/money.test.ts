import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allocateCents,
  centsToDecimal,
  decimalToCents,
  formatCents,
  parseAmount,
  parseDebitCredit,
  splitCents,
} from '../../../domain/money';

const cents = (s: string) => {
  const r = parseAmount(s);
  if (!r.ok) throw new Error(`${s}: ${r.code}`);
  return r.cents;
};

describe('parseAmount', () => {
  it.each([
    ['1.234,56', 123456],
    ['-1 234,56', -123456],
    ['1,234.56', 123456],
    ['(12,00)', -1200],
    ['12,00-', -1200],
    ['1234', 123400],
    ['1.234', 123400],
    ['0,5', 50],
    ['+3,10', 310],
    ['EUR 3,10', 310],
    ['1 234 567,89 €', 123456789],
    ['4581.35', 458135],
    ['1.234.567', 123456700],
    ['-0,00', 0],
    ['12,340', 1234000],
  ])('%s → %i', (input, expected) => {
    expect(cents(input)).toBe(expected);
  });

  it.each([
    ['', 'EMPTY'],
    ['abc', 'INVALID_AMOUNT'],
    ['1,2,3', 'INVALID_AMOUNT'],
    ['12.3456', 'TOO_MANY_DECIMALS'],
    ['1.23.4,5', 'INVALID_AMOUNT'],
    ['99999999999999999', 'OUT_OF_RANGE'],
  ])('%s → %s', (input, code) => {
    expect(parseAmount(input)).toEqual({ ok: false, code });
  });

  it('reads XML dot-decimals strictly', () => {
    expect(decimalToCents('1250.00')).toBe(125000);
    expect(decimalToCents('0.5')).toBe(50);
    expect(decimalToCents('12.34000')).toBe(1234);
    expect(decimalToCents('-3')).toBe(-300);
    expect(decimalToCents('1.234')).toBeNull();
    expect(decimalToCents('1,50')).toBeNull();
    expect(decimalToCents('1e5')).toBeNull();
  });

  it('reads separate debit and credit columns', () => {
    expect(parseDebitCredit('1.250,00', '')).toEqual({ ok: true, cents: -125000 });
    expect(parseDebitCredit('-1.250,00', '')).toEqual({ ok: true, cents: -125000 });
    expect(parseDebitCredit('', '29,60')).toEqual({ ok: true, cents: 2960 });
    expect(parseDebitCredit('', '')).toEqual({ ok: false, code: 'EMPTY' });
    expect(parseDebitCredit('1,00', '2,00')).toEqual({ ok: false, code: 'INVALID_AMOUNT' });
  });

  it('round-trips through the PT, EN and XML renderings', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e13, max: 1e13 }), (c) => {
        expect(cents(centsToDecimal(c))).toBe(c);
        expect(cents(formatCents(c, 'pt-PT'))).toBe(c);
        expect(cents(formatCents(c, 'en-GB').replace('€', ''))).toBe(c);
      }),
    );
  });
});

describe('formatting', () => {
  it('formats per locale without float artefacts', () => {
    expect(formatCents(123456, 'pt-PT')).toMatch(/^1\s?234,56\s€$/);
    expect(formatCents(123456, 'en-GB')).toBe('€1,234.56');
    expect(formatCents(-5, 'en-GB')).toBe('-€0.05');
    expect(centsToDecimal(100000000000001)).toBe('1000000000000.01');
    expect(centsToDecimal(-7)).toBe('-0.07');
  });
});

describe('splitting', () => {
  it('splits without losing or inventing a cent', () => {
    expect(splitCents(100, 3)).toEqual([34, 33, 33]);
    expect(splitCents(-100, 3)).toEqual([-34, -33, -33]);
    expect(allocateCents(1000, [1, 1, 2])).toEqual([250, 250, 500]);
    fc.assert(
      fc.property(
        fc.integer({ min: -1e12, max: 1e12 }),
        fc
          .array(fc.integer({ min: 0, max: 1e6 }), { minLength: 1, maxLength: 20 })
          .filter((w) => w.some((x) => x > 0)),
        (total, weights) => {
          const parts = allocateCents(total, weights);
          expect(parts.reduce((a, b) => a + b, 0)).toBe(total);
          parts.forEach((p, i) => {
            expect(Number.isInteger(p)).toBe(true);
            if (weights[i] === 0) expect(p).toBe(0);
          });
        },
      ),
    );
  });

  it('refuses impossible splits', () => {
    expect(() => splitCents(10, 0)).toThrow(RangeError);
    expect(() => allocateCents(10, [0, 0])).toThrow(RangeError);
    expect(() => allocateCents(10.5, [1])).toThrow(RangeError);
  });
});
