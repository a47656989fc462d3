import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectedFromPain001, parseExpectedItems } from '../../../domain/reconcile/expected';
import { suggestionScore } from '../../../domain/reconcile/features';
import {
  type ExpectedItem,
  type MatchEntry,
  type ReconcileResult,
  reconcile,
  withEntryIds,
} from '../../../domain/reconcile/match';
import { readPain001 } from '../../../domain/sepa/read-pain001';
import { parseStatement } from '../../../domain/statements/detect';
import type { StatementEntry } from '../../../domain/statements/types';
import { matchEntry } from '../../support/match-entries';
import { sample, sampleText } from './shared-fixtures';

const entry = (id: string, over: Partial<StatementEntry>): MatchEntry =>
  matchEntry({ id, bookingDate: '2026-05-05', amountCents: -1000, ...over });

describe('the synthetic pair reconciles fully', () => {
  const statement = parseStatement(sample('synthetic-statement-pt.camt.053.001.02.xml'));
  const pain = readPain001(sampleText('synthetic-payout-pt.pain.001.001.03.xml'));
  if (!pain.ok) throw new Error(pain.code);
  const entries = withEntryIds(statement.entries);
  const result = reconcile(entries, expectedFromPain001(pain.file));
  const line = (id: string) => entries.find((e) => e.id === id)!;

  it('matches the three payouts by EndToEndId', () => {
    expect(result.matches).toHaveLength(3);
    for (const m of result.matches) {
      expect(m.method).toBe('endToEndId');
      expect(m.confidence).toBe(1);
      expect(m.differenceCents).toBe(0);
      expect(m.itemIds[0]).toBe(`PAYOUT-2026-04-0001/${line(m.entryIds[0]!).endToEndId}`);
    }
    expect(result.suggestions).toEqual([]);
  });

  it('sees the batch debit as the whole SEPA file', () => {
    expect(result.batches).toEqual([
      expect.objectContaining({
        batchId: 'PAYOUT-2026-04-0001-B1',
        statementCents: -458135,
        expectedCents: -458135,
        complete: true,
      }),
    ]);
    expect(result.batches[0]!.itemIds).toHaveLength(3);
  });

  it('links the AC04 return to its payout', () => {
    expect(result.returns).toHaveLength(1);
    expect(result.returns[0]).toMatchObject({
      itemId: 'PAYOUT-2026-04-0001/STL-2026-04-DOC0311',
      reason: 'AC04',
    });
    expect(line(result.returns[0]!.entryId)).toMatchObject({ kind: 'return', amountCents: 12050 });
  });

  it('leaves the bank fee and the unrelated credit unmatched', () => {
    expect(result.unmatchedEntries.map((id) => line(id).amountCents).sort((a, b) => a - b)).toEqual([
      -150, 296040,
    ]);
    expect(result.unmatchedItems).toEqual([]);
  });
});

describe('matching rules', () => {
  const sepa = (id: string, over: Partial<ExpectedItem> = {}): ExpectedItem => ({
    id,
    type: 'sepa',
    amountCents: 1000,
    ...over,
  });

  it('matches an unexpanded batch debit to every open transaction of its file when the totals agree', () => {
    const items = [
      sepa('a', { batchIds: ['B1', 'M1'] }),
      sepa('b', { batchIds: ['B1', 'M1'], amountCents: 500 }),
    ];
    const r = reconcile([entry('E1', { amountCents: -1500, batchId: 'M1' })], items);
    expect(r.matches).toEqual([
      { entryIds: ['E1'], itemIds: ['a', 'b'], method: 'batch', confidence: 1, differenceCents: 0 },
    ]);
    expect(r.batches[0]).toMatchObject({ batchId: 'M1', complete: true });
    const wrong = reconcile([entry('E1', { amountCents: -1499, batchId: 'M1' })], items);
    expect(wrong.matches).toEqual([]);
    expect(wrong.batches[0]!.complete).toBe(false);
  });

  it('flags an EndToEndId match whose amount differs', () => {
    const r = reconcile(
      [entry('E1', { endToEndId: 'X', amountCents: -900 })],
      [sepa('x', { endToEndId: 'X' })],
    );
    expect(r.matches[0]).toMatchObject({ method: 'endToEndId', differenceCents: 100 });
    expect(r.matches[0]!.confidence).toBeLessThan(1);
  });

  it('finds a reference with spaces only in a bank reference, one several items carry by amount and first by id, never at another amount', () => {
    // "FT 2026A/17" is how an invoicing program numbers a sales document: a description's words never hold it.
    const items: ExpectedItem[] = [
      { id: 'A', type: 'invoice', amountCents: 2500, date: '2026-05-04', reference: 'FT 2026A/17' },
      { id: 'B', type: 'invoice', amountCents: 2500, date: '2026-05-04', reference: 'FT 2026A/18' },
      { id: 'C', type: 'payout', amountCents: 4000, date: '2026-05-04', reference: 'po_MONTH' },
      { id: 'D', type: 'payout', amountCents: 6000, date: '2026-05-04', reference: 'po_month' },
      { id: 'E', type: 'payout', amountCents: 4000, date: '2026-05-04', reference: 'PO_MONTH' },
      { id: 'F', type: 'payout', amountCents: 7000, date: '2026-05-04', reference: 'po_SOLO' },
      { id: 'G', type: 'payout', amountCents: 7001, date: '2026-05-04', reference: 'po_OTHER' },
    ];
    const entries = [
      entry('L1', {
        amountCents: 2500,
        description: 'TRF CR SEPA+ FT 2026A/17',
        bankReference: 'ft 2026a/18',
      }),
      entry('L2', { amountCents: 2500, description: 'TRF CR SEPA+ FT 2026A/17' }),
      entry('L3', { amountCents: 6000, description: 'STRIPE PO_MONTH' }),
      entry('L4', { amountCents: 4000, description: 'STRIPE po_month' }),
      entry('L5', { amountCents: 4000, description: 'STRIPE po_month' }),
      entry('L6', { amountCents: 4000, description: 'STRIPE po_month' }),
      entry('L7', { amountCents: 7001, description: 'STRIPE po_solo' }),
    ];
    const byReference = reconcile(entries, items)
      .matches.filter((m) => m.method === 'reference')
      .map((m) => [m.entryIds[0], m.itemIds[0]]);
    expect(byReference).toEqual([
      ['L1', 'B'],
      ['L3', 'D'],
      ['L4', 'C'],
      ['L5', 'E'],
    ]);
  });

  it('matches a payout by its id in the description, then suggests by amount, counterparty and date', () => {
    const items: ExpectedItem[] = [
      { id: 'po_1', type: 'payout', amountCents: 5000, date: '2026-05-04', reference: 'po_1A2B' },
      {
        id: 'inv-7',
        type: 'invoice',
        amountCents: 2500,
        date: '2026-05-01',
        counterpartyName: 'Clínica Sorriso',
      },
      {
        id: 'inv-8',
        type: 'invoice',
        amountCents: 2500,
        date: '2026-04-01',
        counterpartyName: 'Clinica Sorriso',
      },
      {
        id: 'inv-9',
        type: 'invoice',
        amountCents: 700,
        date: '2026-05-05',
        counterpartyName: 'Somebody Else',
      },
    ];
    const entries = [
      entry('E1', { amountCents: 5000, description: 'TRF CR STRIPE PAYOUT po_1A2B' }),
      entry('E2', { amountCents: 2500, description: 'TRF CR SEPA+ DE CLINICA SORRISO LDA' }),
      entry('E3', { amountCents: 700, description: 'TRF CR SEPA+ DE OUTRA PESSOA' }),
    ];
    const r = reconcile(entries, items);
    expect(r.matches).toEqual([
      { entryIds: ['E1'], itemIds: ['po_1'], method: 'reference', confidence: 1, differenceCents: 0 },
    ]);
    expect(r.suggestions).toHaveLength(1);
    expect(r.suggestions[0]).toMatchObject({
      entryIds: ['E2'],
      itemIds: ['inv-7'],
      method: 'amount-counterparty-date',
    });
    expect(r.suggestions[0]!.confidence).toBeLessThan(1);
    expect(r.unmatchedEntries).toEqual(['E3']);
    expect(r.unmatchedItems).toEqual(['inv-8', 'inv-9']);
  });

  it('validates expected items from JSON', () => {
    expect(
      parseExpectedItems({ items: [{ id: 'a', type: 'payout', amountCents: 10, date: '2026-05-01' }] })
        .errors,
    ).toEqual([]);
    expect(
      parseExpectedItems([
        { id: 'a', type: 'x', amountCents: 1.5, date: '1/5/2026' },
        { id: 'a', type: 'payout', amountCents: 1 },
        { id: 'a', type: 'payout', amountCents: 1 },
      ]).errors,
    ).toEqual([
      { index: 0, field: 'type', code: 'INVALID' },
      { index: 0, field: 'amountCents', code: 'INVALID_AMOUNT' },
      { index: 0, field: 'date', code: 'INVALID_DATE' },
      { index: 2, field: 'id', code: 'DUPLICATE' },
    ]);
    expect(parseExpectedItems('nope').errors[0]!.code).toBe('NOT_A_LIST');
  });
});

describe('matcher invariants (property)', () => {
  const day = fc.integer({ min: 1, max: 9 }).map((d) => `2026-05-0${d}`);
  const amount = fc.constantFrom(500, 1000, 2500);
  const ref = fc.constantFrom('E2E-1', 'E2E-2', 'E2E-3', null);
  const entries = fc
    .uniqueArray(
      fc.record({
        id: fc.stringMatching(/^L[0-9]{1,3}$/),
        bookingDate: day,
        amountCents: fc.tuple(amount, fc.boolean()).map(([a, neg]) => (neg ? -a : a)),
        endToEndId: ref,
        batchId: fc.constantFrom('B1', 'B2', null),
        kind: fc.constantFrom('transfer' as const, 'return' as const, 'fee' as const),
        description: fc.constantFrom('', 'STRIPE po_1', 'CLINICA SORRISO'),
        counterpartyIban: fc.constantFrom(null, 'PT50003300004567890123437'),
      }),
      { selector: (e) => e.id, maxLength: 25 },
    )
    .map((list) => list.map((e) => entry(e.id, e)));
  const items = fc.uniqueArray(
    fc.record({
      id: fc.stringMatching(/^I[0-9]{1,3}$/),
      type: fc.constantFrom('sepa' as const, 'payout' as const, 'invoice' as const),
      amountCents: amount,
      date: fc.option(day, { nil: undefined }),
      endToEndId: ref,
      batchIds: fc.constantFrom<string[] | undefined>(['B1'], ['B2', 'M2'], undefined),
      reference: fc.constantFrom('po_1', null),
      counterpartyName: fc.constantFrom('Clinica Sorriso', null),
      counterpartyIban: fc.constantFrom(null, 'PT50003300004567890123437', 'PT50001000001112223334480'),
    }),
    { selector: (i) => i.id, maxLength: 25 },
  );

  const uses = (r: ReconcileResult) => {
    const pairs = [...r.matches, ...r.suggestions];
    return {
      entries: [...pairs.flatMap((m) => m.entryIds), ...r.returns.map((x) => x.entryId)],
      items: pairs.flatMap((m) => m.itemIds),
      returned: r.returns.map((x) => x.itemId),
    };
  };

  it('uses each bank entry and each expected item at most once, and accounts for all of them', () => {
    fc.assert(
      fc.property(entries, items, (es, is) => {
        const r = reconcile(es, is);
        const u = uses(r);
        expect(new Set(u.entries).size).toBe(u.entries.length);
        expect(new Set(u.items).size).toBe(u.items.length);
        expect(new Set(u.returned).size).toBe(u.returned.length);
        expect([...u.entries, ...r.unmatchedEntries].sort()).toEqual(es.map((e) => e.id).sort());
        expect([...u.items, ...r.unmatchedItems].sort()).toEqual(is.map((i) => i.id).sort());
      }),
      { numRuns: 300 },
    );
  });

  it('takes a line named by reference over items that agree on amount, name and date (property)', () => {
    // A line names one item by EndToEndId or by payout id; decoys have its exact amount, date and
    // counterparty (a suggestion would love them). Whatever the order, the reference wins.
    const decoy = fc.record({
      id: fc.stringMatching(/^D[0-9]{1,3}$/),
      type: fc.constantFrom('sepa' as const, 'payout' as const, 'invoice' as const),
      date: fc.constantFrom('2026-05-05', '2026-05-04', null),
    });
    fc.assert(
      fc.property(
        fc.constantFrom('endToEndId' as const, 'reference' as const),
        fc.boolean(),
        fc.integer({ min: 1, max: 9999 }),
        fc.uniqueArray(decoy, { selector: (d) => d.id, maxLength: 8 }),
        fc.boolean(),
        (by, outgoing, amount, decoys, reversed) => {
          const direction = outgoing ? ('out' as const) : ('in' as const);
          const named: ExpectedItem = {
            id: 'NAMED',
            type: outgoing ? 'sepa' : 'payout',
            direction,
            amountCents: amount,
            date: '2026-04-20',
            ...(by === 'endToEndId' ? { endToEndId: 'E2E-42' } : { reference: 'po_42' }),
          };
          const line = entry('L1', {
            amountCents: outgoing ? -amount : amount,
            counterpartyName: 'Clinica Sorriso',
            ...(by === 'endToEndId' ? { endToEndId: 'E2E-42' } : { description: 'TRF po_42' }),
          });
          const others: ExpectedItem[] = decoys.map((d) => ({
            ...d,
            direction,
            amountCents: amount,
            counterpartyName: 'Clinica Sorriso',
          }));
          const items = reversed ? [...others, named].reverse() : [named, ...others];
          const r = reconcile([line], items);
          expect(r.matches).toEqual([
            { entryIds: ['L1'], itemIds: ['NAMED'], method: by, confidence: 1, differenceCents: 0 },
          ]);
          expect(r.suggestions).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('gives the same result whatever the input order', () => {
    fc.assert(
      fc.property(entries, items, fc.integer(), (es, is, seed) => {
        const shuffle = <T>(list: T[]) => {
          let s = seed;
          return list
            .map((v) => {
              s = (s * 1103515245 + 12345) & 0x7fffffff;
              return { v, k: s };
            })
            .sort((a, b) => a.k - b.k)
            .map((x) => x.v);
        };
        expect(reconcile(shuffle(es), shuffle(is))).toEqual(reconcile(es, is));
        expect(reconcile([...es].reverse(), [...is].reverse())).toEqual(reconcile(es, is));
      }),
      { numRuns: 300 },
    );
  });
});

describe('a line whose nearest counterparts by date come from several lists at one distance', () => {
  // Booked Wednesday 17 June, value date Monday 15 June: at distance 0 its amount has 30 undated
  // counterparts, 30 of the booking day and 30 of the value day — 90 to merge, more than the matcher's
  // scratch holds at first (it grows). The 30 nearest by (distance, id) are the booking day's (ids B…);
  // A is the lowest id of all but 3 days away, never reached.
  const items: ExpectedItem[] = [{ id: 'A', type: 'invoice', amountCents: 2500, date: '2026-06-12' }];
  for (const [prefix, date] of [
    ['B', '2026-06-17'],
    ['C', '2026-06-15'],
    ['U', null],
  ] as const)
    for (let k = 0; k < 30; k++)
      items.push({ id: `${prefix}${String(k).padStart(2, '0')}`, type: 'invoice', amountCents: 2500, date });
  // A SEPA credit is expected a business day after its counterpart: each dated one costs 1, an undated one 0.
  const line = entry('L', {
    amountCents: 2500,
    bookingDate: '2026-06-17',
    valueDate: '2026-06-15',
    description: 'TRF CR SEPA+',
  });

  it('compares the 30 nearest by (distance, id), merged whole with their date costs, and suggests the first', () => {
    const result = reconcile([line], items, { maxCandidates: 30 });
    expect(result.suggestions.map((s) => [s.itemIds, s.confidence])).toEqual([
      [['B00'], suggestionScore(0.5, 1, 5)],
    ]);
  });
});
