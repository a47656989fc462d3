// One account, one payer; a customer's twin counterparts (decision 0177). June 2026: Monday 8, Tuesday 9,
// Thursday 11, Friday 12 (Wednesday 10 is Portugal Day).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ExpectedItem, type MatchEntry, SURE_SUGGESTION } from '../../../domain/reconcile/match';
import { matchEntry, suggested } from '../../support/match-entries';

const SIMOES_ACCOUNT = 'PT50003500000000000000101';
const line = (id: string, over: Partial<MatchEntry>): MatchEntry =>
  matchEntry({ id, bookingDate: '2026-06-09', amountCents: 2500, ...over });
const invoice = (id: string, name: string, over: Partial<ExpectedItem> = {}): ExpectedItem => ({
  id,
  type: 'invoice',
  direction: 'in',
  amountCents: 2500,
  date: '2026-06-08',
  counterpartyName: name,
  ...over,
});

describe('one account, one payer', () => {
  // João Simões pays his 40 € invoice with his name in full, and a 25 € one as "J SIMOES" from the same
  // account; Joana Simões has a 25 € invoice of the same day, so the name alone cannot tell.
  const items = [
    invoice('JOAO-40', 'João Simões', { amountCents: 4000, date: '2026-06-05', partyId: 'C-JOAO' }),
    invoice('JOAO-25', 'João Simões', { partyId: 'C-JOAO' }),
    invoice('JOANA-25', 'Joana Simões', { partyId: 'C-JOANA' }),
  ];
  const whole = { amountCents: 4000, bookingDate: '2026-06-08', description: 'TRF SEPA JOAO SIMOES' };
  const initial = { description: 'TRF SEPA J SIMOES' };

  it('reads a line printed alike as the payer its account surely paid in the file, whichever line comes first', () => {
    for (const [first, second] of [
      [whole, initial],
      [initial, whole],
    ] as const) {
      const to = suggested(
        [
          line('L1', { ...first, counterpartyIban: SIMOES_ACCOUNT }),
          line('L2', { ...second, counterpartyIban: SIMOES_ACCOUNT }),
        ],
        items,
      );
      const initialLine = first === initial ? 'L1' : 'L2';
      expect(to[initialLine]).toEqual(['JOAO-25', SURE_SUGGESTION]);
    }
  });

  it('says nothing without the account, or from another account', () => {
    for (const iban of [null, 'PT50003500000000000000999']) {
      const to = suggested(
        [
          line('L1', { ...whole, counterpartyIban: SIMOES_ACCOUNT }),
          line('L2', { ...initial, counterpartyIban: iban }),
        ],
        items,
      );
      expect(to.L1).toEqual(['JOAO-40', SURE_SUGGESTION]);
      expect(to.L2![1]).toBeLessThan(SURE_SUGGESTION);
    }
  });

  it('takes the payer’s counterpart from the line that held it, which takes the one it leaves', () => {
    // L1 (no account) comes first in id order and took João's invoice; L3, from João's account, takes it
    // back, and L1 the one L3 held.
    const to = suggested(
      [
        line('L1', initial),
        line('L2', { ...whole, counterpartyIban: SIMOES_ACCOUNT }),
        line('L3', { ...initial, counterpartyIban: SIMOES_ACCOUNT }),
      ],
      items,
    );
    expect(to.L3).toEqual(['JOAO-25', SURE_SUGGESTION]);
    expect(to.L1![0]).toBe('JOANA-25');
  });

  it('names neither party when the account surely paid two', () => {
    // A shared account pays João's and Joana's invoices in full names: its J SIMOES line stays a person's.
    const to = suggested(
      [
        line('L1', { ...whole, counterpartyIban: SIMOES_ACCOUNT }),
        line('L2', {
          amountCents: 1500,
          bookingDate: '2026-06-08',
          description: 'TRF SEPA JOANA SIMOES',
          counterpartyIban: SIMOES_ACCOUNT,
        }),
        line('L3', { ...initial, counterpartyIban: SIMOES_ACCOUNT }),
      ],
      [
        ...items,
        invoice('JOANA-15', 'Joana Simões', { amountCents: 1500, date: '2026-06-05', partyId: 'C-JOANA' }),
      ],
    );
    expect(to.L1).toEqual(['JOAO-40', SURE_SUGGESTION]);
    expect(to.L2).toEqual(['JOANA-15', SURE_SUGGESTION]);
    expect(to.L3![1]).toBeLessThan(SURE_SUGGESTION);
  });
});

describe('a customer’s twin counterparts', () => {
  it('takes the first numbered of one customer’s two documents of one amount and day, surely', () => {
    const to = suggested(
      [line('L1', { description: 'TRF SEPA RUI COSTA' })],
      [invoice('FT-2', 'Rui Costa', { partyId: 'C1' }), invoice('FT-1', 'Rui Costa', { partyId: 'C1' })],
    );
    expect(to.L1).toEqual(['FT-1', SURE_SUGGESTION]);
  });

  it('pays both twins from two lines surely, either way round', () => {
    const to = suggested(
      [line('L1', { description: 'TRF SEPA RUI COSTA' }), line('L2', { description: 'MB WAY RUI COSTA' })],
      [invoice('FT-1', 'Rui Costa', { partyId: 'C1' }), invoice('FT-2', 'Rui Costa', { partyId: 'C1' })],
    );
    expect(to).toEqual({ L1: ['FT-1', SURE_SUGGESTION], L2: ['FT-2', SURE_SUGGESTION] });
  });

  it('is no twin of another kind, another day, or another customer printed alike', () => {
    for (const other of [
      invoice('OTHER', 'Rui Costa', { partyId: 'C1', type: 'payout' }),
      invoice('OTHER', 'Rui Costa', { partyId: 'C1', date: '2026-06-05' }),
      invoice('OTHER', 'Rui Costa', { partyId: 'C2' }),
    ]) {
      const to = suggested(
        [line('L1', { bookingDate: '2026-06-08', description: 'MB WAY RUI COSTA' })],
        [invoice('FT-1', 'Rui Costa', { partyId: 'C1' }), other],
      );
      if (other.date === '2026-06-05') expect(to.L1).toEqual(['FT-1', SURE_SUGGESTION]);
      else expect(to.L1![1]).toBeLessThan(SURE_SUGGESTION);
    }
  });

  it('is never surely wrong when each account is one customer’s, beyond a twin (property)', () => {
    // Two customers printed alike (J SIMOES), each paying from an account of their own or without one,
    // some invoices unpaid; a sure pair links a line to its payer's invoice, or a twin of it.
    const days = ['2026-06-08', '2026-06-09', '2026-06-11', '2026-06-12'];
    const payment = fc.record({
      customer: fc.constantFrom('C-JOAO', 'C-JOANA'),
      day: fc.integer({ min: 0, max: days.length - 2 }),
      amountCents: fc.constantFrom(2500, 4000),
      name: fc.constantFrom('initial', 'whole'),
      account: fc.boolean(),
      paid: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(payment, { minLength: 2, maxLength: 8 }), (payments) => {
        const items = payments.map((p, k) =>
          invoice(`I${k}`, p.customer === 'C-JOAO' ? 'João Simões' : 'Joana Simões', {
            amountCents: p.amountCents,
            date: days[p.day]!,
            partyId: p.customer,
          }),
        );
        const lines = payments.flatMap((p, k) =>
          p.paid
            ? [
                line(`L${k}`, {
                  amountCents: p.amountCents,
                  bookingDate: days[p.day + 1]!,
                  description:
                    p.name === 'initial'
                      ? 'TRF SEPA J SIMOES'
                      : `TRF SEPA ${p.customer === 'C-JOAO' ? 'JOAO' : 'JOANA'} SIMOES`,
                  counterpartyIban: p.account ? `PT50${p.customer}` : null,
                }),
              ]
            : [],
        );
        const byId = new Map(items.map((i) => [i.id, i]));
        for (const [id, [item, confidence]] of Object.entries(suggested(lines, items))) {
          if (confidence < SURE_SUGGESTION) continue;
          const truth = byId.get(`I${id.slice(1)}`)!;
          const taken = byId.get(item)!;
          expect([taken.partyId, taken.amountCents, taken.date]).toEqual([
            truth.partyId,
            truth.amountCents,
            truth.date,
          ]);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
