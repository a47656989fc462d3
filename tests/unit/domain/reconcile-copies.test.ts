// Lines printed alike (decision 0185): one payment a bank booked twice, or two payments nothing on the
// statement tells apart. One of them pays the counterpart both agree with, whichever is linked; the other
// is never sure of the payer's next document. June 2026: Friday 5, Monday 8, Tuesday 9.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ExpectedItem, type MatchEntry, SURE_SUGGESTION } from '../../../domain/reconcile/match';
import { matchEntry, suggested } from '../../support/match-entries';

const line = (id: string, over: Partial<MatchEntry> = {}): MatchEntry =>
  matchEntry({
    id,
    bookingDate: '2026-06-09',
    amountCents: 2500,
    description: 'TRF SEPA RUI COSTA',
    ...over,
  });
const invoice = (id: string, over: Partial<ExpectedItem> = {}): ExpectedItem => ({
  id,
  type: 'invoice',
  direction: 'in',
  amountCents: 2500,
  date: '2026-06-08',
  counterpartyName: 'Rui Costa',
  partyId: 'C-RUI',
  ...over,
});

describe('lines printed alike', () => {
  it('take the one counterpart both agree with surely, the first numbered line, whatever the order given', () => {
    const lines = [
      line('L1', { bankReference: 'REF-1' }),
      line('L2', { bankReference: 'REF-2', lineNumber: 2 }),
    ];
    for (const order of [lines, [...lines].reverse()])
      expect(suggested(order, [invoice('FT-1')])).toEqual({ L1: ['FT-1', SURE_SUGGESTION] });
  });

  it('stay rivals when anything printed tells them apart', () => {
    for (const other of [
      { valueDate: '2026-06-10' },
      { description: 'MB WAY RUI COSTA' },
      { counterpartyIban: 'PT50003500000000000000101' },
      { bookingDate: '2026-06-10' },
    ]) {
      const to = suggested([line('L1'), line('L2', other)], [invoice('FT-1')]);
      expect(Object.values(to)).toHaveLength(1);
      expect(Object.values(to)[0]![1]).toBeLessThan(SURE_SUGGESTION);
    }
  });

  it('leave the copy of a sure line unsure of the payer’s other document', () => {
    // Friday's invoice, unpaid or paid by a line not here: a copy of Tuesday's payment looks like its payment.
    const to = suggested(
      [line('L1'), line('L2')],
      [invoice('FT-1'), invoice('FT-0', { date: '2026-06-05' })],
    );
    expect(to.L1).toEqual(['FT-1', SURE_SUGGESTION]);
    expect(to.L2![0]).toBe('FT-0');
    expect(to.L2![1]).toBeLessThan(SURE_SUGGESTION);
  });

  it('still take a customer’s twin documents surely, one each', () => {
    const to = suggested([line('L1'), line('L2')], [invoice('FT-1'), invoice('FT-2')]);
    expect(to).toEqual({ L1: ['FT-1', SURE_SUGGESTION], L2: ['FT-2', SURE_SUGGESTION] });
  });

  it('are not sure between two customers printed alike, one document each', () => {
    const to = suggested(
      [line('L1', { description: 'TRF SEPA R COSTA' }), line('L2', { description: 'TRF SEPA R COSTA' })],
      [invoice('FT-RUI'), invoice('FT-RITA', { counterpartyName: 'Rita Costa', partyId: 'C-RITA' })],
    );
    expect(Object.values(to).map(([, confidence]) => confidence < SURE_SUGGESTION)).toEqual([true, true]);
  });

  it('are never surely wrong, a bank’s copy taken as either line (property)', () => {
    // Two customers with names of their own pay some of their invoices the next business day; the bank
    // books some payments twice. A sure pair links a line to a document one of its alike lines paid.
    const days = ['2026-06-05', '2026-06-08', '2026-06-09', '2026-06-11'];
    const payment = fc.record({
      customer: fc.constantFrom('Rui Costa', 'Ana Lopes'),
      day: fc.integer({ min: 0, max: days.length - 2 }),
      amountCents: fc.constantFrom(2500, 4000),
      paid: fc.boolean(),
      bookedTwice: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(payment, { minLength: 1, maxLength: 8 }), (payments) => {
        const items = payments.map((p, k) =>
          invoice(`I${k}`, {
            amountCents: p.amountCents,
            date: days[p.day]!,
            counterpartyName: p.customer,
            partyId: p.customer,
          }),
        );
        const lines = payments.flatMap((p, k) => {
          const paying = {
            amountCents: p.amountCents,
            bookingDate: days[p.day + 1]!,
            description: `TRF SEPA ${p.customer.toUpperCase()}`,
          };
          if (!p.paid) return [];
          return p.bookedTwice ? [line(`L${k}`, paying), line(`C${k}`, paying)] : [line(`L${k}`, paying)];
        });
        const printOf = (id: string) =>
          JSON.stringify(lines.find((l) => l.id === id)!, ['amountCents', 'bookingDate', 'description']);
        const paidBy = new Map<string, string>(
          payments.flatMap((p, k) => (p.paid ? [[`I${k}`, printOf(`L${k}`)] as const] : [])),
        );
        const byId = new Map(items.map((i) => [i.id, i]));
        for (const [id, [item, confidence]] of Object.entries(suggested(lines, items))) {
          if (confidence < SURE_SUGGESTION) continue;
          // The document taken is one a line printed alike paid, or the twin of one (decision 0177).
          const taken = byId.get(item)!;
          const twins = items.filter(
            (i) =>
              i.partyId === taken.partyId && i.amountCents === taken.amountCents && i.date === taken.date,
          );
          expect(twins.map((i) => paidBy.get(i.id))).toContain(printOf(id));
        }
      }),
      { numRuns: 2000 },
    );
  });
});
