import { assertCents } from './money';

/** Service-fee constants from DESIGN.md §6. */
export const FLAT_FEE_CENTS = 250;
export const FLAT_FEE_BELOW_CENTS = 1600;
export const FEE_PERCENT = 16;

/** n / d rounded half to even, on non-negative integers (no floating point involved). */
export function divRoundHalfEven(n: number, d: number): number {
  assertCents(n);
  if (n < 0 || !Number.isSafeInteger(d) || d <= 0)
    throw new RangeError('divRoundHalfEven expects n >= 0, d > 0');
  const q = Math.floor(n / d);
  const r = n - q * d;
  const twice = 2 * r;
  if (twice > d || (twice === d && q % 2 === 1)) return q + 1;
  return q;
}

function percentHalfEven(cents: number): number {
  return divRoundHalfEven(cents * FEE_PERCENT, 100);
}

function assertPrice(cents: number): void {
  assertCents(cents);
  if (cents < 0) throw new RangeError('a price cannot be negative');
}

/** fee = 250 if P < 1600, else round-half-even(P × 16 %). */
export function serviceFeeCents(priceCents: number): number {
  assertPrice(priceCents);
  return priceCents < FLAT_FEE_BELOW_CENTS ? FLAT_FEE_CENTS : percentHalfEven(priceCents);
}

export function subscriptionFeeCents(priceCents: number): number {
  assertPrice(priceCents);
  return percentHalfEven(priceCents);
}

export interface FeeBreakdown {
  grossCents: number;
  feeCents: number;
  netCents: number;
}

/** A paid case → its settlement amounts; a free case (price 0) → null, it produces no settlement. */
export function caseSettlementAmounts(priceCents: number): FeeBreakdown | null {
  if (priceCents === 0) return null;
  const feeCents = serviceFeeCents(priceCents);
  return { grossCents: priceCents, feeCents, netCents: priceCents - feeCents };
}

export function subscriptionSettlementAmounts(priceCents: number): FeeBreakdown | null {
  if (priceCents === 0) return null;
  const feeCents = subscriptionFeeCents(priceCents);
  return { grossCents: priceCents, feeCents, netCents: priceCents - feeCents };
}
