import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  caseSettlementAmounts,
  divRoundHalfEven,
  serviceFeeCents,
  subscriptionFeeCents,
  subscriptionSettlementAmounts,
} from '../../../domain/fees';

describe('service fee (DESIGN.md §6)', () => {
  it('pins the 1599/1600 boundary', () => {
    expect(serviceFeeCents(1599)).toBe(250);
    expect(serviceFeeCents(1600)).toBe(256);
    expect(serviceFeeCents(1)).toBe(250);
  });

  it('rounds half to even', () => {
    expect(divRoundHalfEven(5, 2)).toBe(2);
    expect(divRoundHalfEven(7, 2)).toBe(4);
    expect(divRoundHalfEven(250, 100)).toBe(2);
    expect(divRoundHalfEven(350, 100)).toBe(4);
    expect(serviceFeeCents(1603)).toBe(256); // 256.48
    expect(serviceFeeCents(1604)).toBe(257); // 256.64
    expect(serviceFeeCents(1625)).toBe(260); // exact
    expect(serviceFeeCents(1615)).toBe(258); // 258.4
    expect(subscriptionFeeCents(3)).toBe(0); // 0.48
    expect(subscriptionFeeCents(25)).toBe(4); // 4.00
    expect(subscriptionFeeCents(1_000_000_000_025)).toBe(160_000_000_004);
  });

  it('free cases produce no settlement', () => {
    expect(caseSettlementAmounts(0)).toBeNull();
    expect(subscriptionSettlementAmounts(0)).toBeNull();
    expect(caseSettlementAmounts(5000)).toEqual({ grossCents: 5000, feeCents: 800, netCents: 4200 });
  });

  it('refuses negative and fractional prices', () => {
    expect(() => serviceFeeCents(-1)).toThrow(RangeError);
    expect(() => serviceFeeCents(16.5)).toThrow(RangeError);
  });

  it('keeps its identities for any price', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e13 }), (p) => {
        const s = caseSettlementAmounts(p)!;
        expect(s.grossCents - s.feeCents).toBe(s.netCents);
        expect(Number.isInteger(s.feeCents)).toBe(true);
        if (p < 1600) expect(s.feeCents).toBe(250);
        else {
          // |fee − 16 % of p| ≤ half a cent, checked exactly in integers: |100·fee − 16·p| ≤ 50.
          expect(Math.abs(100 * s.feeCents - 16 * p)).toBeLessThanOrEqual(50);
        }
        const sub = subscriptionSettlementAmounts(p)!;
        expect(Math.abs(100 * sub.feeCents - 16 * p)).toBeLessThanOrEqual(50);
        expect(sub.netCents + sub.feeCents).toBe(p);
      }),
    );
  });

  it('matches BigInt half-even rounding', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e14 }), fc.integer({ min: 1, max: 1000 }), (n, d) => {
        const q = BigInt(n) / BigInt(d);
        const r = BigInt(n) % BigInt(d);
        const expected = 2n * r > BigInt(d) || (2n * r === BigInt(d) && q % 2n === 1n) ? q + 1n : q;
        expect(divRoundHalfEven(n, d)).toBe(Number(expected));
      }),
    );
  });
});
