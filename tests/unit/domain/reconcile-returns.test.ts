import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ExpectedItem, type MatchEntry, reconcile } from '../../../domain/reconcile/match';

// A return naming no EndToEndId is suggested against the transfer it gives back: same amount, the
// other sign, executed before it within the return window (decision 0123).

const returnLine = (amountCents: number, over: Partial<MatchEntry> = {}): MatchEntry => ({
  id: 'R1',
  bookingDate: '2026-05-12',
  valueDate: null,
  amountCents,
  currency: 'EUR',
  description: 'DEVOLUCAO TRF SEPA AC04',
  counterpartyName: null,
  counterpartyIban: null,
  bankReference: null,
  endToEndId: null,
  batchId: null,
  kind: 'return',
  returnReason: 'AC04',
  lineNumber: 1,
  ...over,
});

const transfer = (id: string, amountCents: number, date = '2026-05-08'): ExpectedItem => ({
  id,
  type: 'sepa',
  amountCents,
  direction: 'out',
  date,
  endToEndId: `E2E-${id}`,
  counterpartyName: `Dra. Teste ${id}`,
});

describe('returns without an EndToEndId', () => {
  it('suggest the transfer of the amount they give back, never one of another amount', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 10_000_000 }), { minLength: 1, maxLength: 8 }),
        fc.nat(),
        (amounts, pick) => {
          const items = amounts.map((a, i) => transfer(`T${i}`, a));
          const returned = pick % amounts.length;
          const result = reconcile([returnLine(amounts[returned]!)], items);
          expect(result.suggestions).toEqual([
            {
              entryIds: ['R1'],
              itemIds: [`T${returned}`],
              method: 'amount-counterparty-date',
              confidence: expect.any(Number),
              differenceCents: 0,
            },
          ]);
          expect(result.matches).toEqual([]);
        },
      ),
    );
  });

  it('suggest nothing for a transfer executed after the return or long before it, or to another IBAN', () => {
    expect(reconcile([returnLine(750)], [transfer('LATER', 750, '2026-05-13')]).suggestions).toEqual([]);
    expect(reconcile([returnLine(750)], [transfer('OLD', 750, '2026-03-01')]).suggestions).toEqual([]);
    const other = { ...transfer('IBAN', 750), counterpartyIban: 'PT50000201231234567890154' };
    const line = returnLine(750, { counterpartyIban: 'PT50003506510000000000033' });
    expect(reconcile([line], [other]).suggestions).toEqual([]);
  });

  it('do not take a payment of the same amount for a return (the sign is handled)', () => {
    // A +7,50 credit that is not a return never meets a −7,50 transfer.
    expect(reconcile([returnLine(750, { kind: 'transfer' })], [transfer('T', 750)]).suggestions).toEqual([]);
    expect(reconcile([returnLine(-750)], [transfer('T', 750)]).suggestions).toEqual([]);
  });
});
