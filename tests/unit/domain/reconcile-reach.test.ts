// The import streams a statement's lines into the database and gives the matcher back only those that
// can reach an open counterpart (decision 0144, domain/reconcile/reach.ts). That is sound only while
// every rule of the matcher needs an item's EndToEndId, batch id or signed amount (or its negation) to
// agree with the line: then the other lines are left unmatched and take nothing from the rest. This
// property holds the matcher to it — a rule that pairs by anything else fails here, not in production.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ExpectedItem,
  type MatchEntry,
  type ReconcileResult,
  reconcile,
} from '../../../domain/reconcile/match';
import { mayMeet, reachOf } from '../../../domain/reconcile/reach';
import type { EntryKind } from '../../../domain/statements/types';

/** What the import reads of the matcher's answer (server/statements/matching.ts, `decide`). */
const decided = (r: ReconcileResult) => ({
  matches: r.matches,
  suggestions: r.suggestions,
  returns: r.returns,
});

const dates = Array.from({ length: 15 }, (_, k) =>
  new Date(Date.UTC(2026, 3, 25 + k)).toISOString().slice(0, 10),
);
const date = fc.constantFrom(...dates);
// Items have some of these amounts; lines have them and others no item has.
const itemAmount = fc.constantFrom(0, 500, 1000, 2500);
const lineAmount = fc.constantFrom(0, 500, 700, 1000, 1300, 2500, 9900);
const ref = fc.constantFrom('E2E-1', 'E2E-2', 'E2E-3', 'E2E-9', 'po_1', null);
const batch = fc.constantFrom('B1', 'B2', 'M2', 'B9', null);
const name = fc.constantFrom('Clinica Sorriso', 'Ana Lopes', 'Sorriso', null);
const iban = fc.constantFrom(null, 'PT50003300004567890123437', 'PT50001000001112223334480');

const entries = fc.uniqueArray(
  fc.record({
    id: fc.integer({ min: 0, max: 999 }).map((n) => `L${n}`),
    bookingDate: date,
    valueDate: fc.option(date, { nil: null }),
    amountCents: fc.tuple(lineAmount, fc.boolean()).map(([a, neg]) => (neg ? -a : a)),
    currency: fc.constant('EUR'),
    description: fc.constantFrom('', 'TRF CR STRIPE po_1', 'TRF CR SEPA+ DE CLINICA SORRISO', 'DD ANA LOPES'),
    counterpartyName: name,
    counterpartyIban: iban,
    bankReference: fc.constantFrom(null, 'po_1', 'X'),
    endToEndId: ref,
    batchId: batch,
    kind: fc.constantFrom<EntryKind>('transfer', 'return', 'fee', 'other'),
    returnReason: fc.constantFrom(null, 'AC04'),
    lineNumber: fc.nat(50),
  }),
  { selector: (e) => e.id, maxLength: 60 },
) as fc.Arbitrary<MatchEntry[]>;

const items = fc.uniqueArray(
  fc.record({
    id: fc.integer({ min: 0, max: 999 }).map((n) => `I${n}`),
    type: fc.constantFrom('sepa' as const, 'payout' as const, 'invoice' as const),
    amountCents: itemAmount,
    direction: fc.constantFrom<ExpectedItem['direction']>('in', 'out', undefined),
    date: fc.oneof(date, fc.constant(null)),
    endToEndId: ref,
    batchIds: fc.constantFrom<string[] | undefined>(['B1'], ['B2', 'M2'], [], undefined),
    reference: fc.constantFrom('po_1', 'E2E-2', null),
    counterpartyName: name,
    counterpartyIban: iban,
  }),
  { selector: (i) => i.id, maxLength: 30 },
);

describe('the lines that can reach an open counterpart (decision 0144)', () => {
  it('the matcher decides the same over them as over every line (property)', () => {
    fc.assert(
      fc.property(entries, items, (es, is) => {
        const reach = reachOf(is);
        const reaching = es.filter((entry) => mayMeet(reach, entry));
        expect(decided(reconcile(reaching, is))).toEqual(decided(reconcile(es, is)));
      }),
      { numRuns: 1500 },
    );
  });

  it('leaves out the lines no item agrees with, and only those', () => {
    const reach = reachOf([
      { id: 'I1', type: 'payout', amountCents: 2500, endToEndId: null, batchIds: [] },
      { id: 'I2', type: 'sepa', amountCents: 700, endToEndId: 'E2E-1', batchIds: ['PMT-1', 'MSG-1'] },
    ]);
    const line = (amountCents: number, endToEndId: string | null = null, batchId: string | null = null) =>
      mayMeet(reach, { amountCents, endToEndId, batchId });
    expect(line(2500)).toBe(true); // the payout's amount
    expect(line(-2500)).toBe(true); // …negated (a return's)
    expect(line(-700)).toBe(true); // the transfer as the bank books it
    expect(line(9900, 'E2E-1')).toBe(true); // another amount, its EndToEndId (a discrepancy)
    expect(line(9900, null, 'MSG-1')).toBe(true); // its file's batch
    expect(line(9900)).toBe(false);
    expect(line(9900, 'E2E-2', 'PMT-2')).toBe(false);
  });
});
