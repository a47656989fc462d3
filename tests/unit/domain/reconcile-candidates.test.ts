import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { candidatesFor, exactSums, type Part, splitsFor } from '../../../domain/reconcile/candidates';
import { expectedFromPain001 } from '../../../domain/reconcile/expected';
import {
  type ExpectedItem,
  type MatchEntry,
  reconcile,
  SURE_SUGGESTION,
  withEntryIds,
} from '../../../domain/reconcile/match';
import { readPain001 } from '../../../domain/sepa/read-pain001';
import { parseStatement } from '../../../domain/statements/detect';
import type { StatementEntry } from '../../../domain/statements/types';
import { matchEntry } from '../../support/match-entries';
import { sample, sampleText } from './shared-fixtures';

const entry = (id: string, over: Partial<StatementEntry>): MatchEntry =>
  matchEntry({ id, bookingDate: '2026-05-05', amountCents: 2500, ...over });

describe('candidates for one line', () => {
  it('on the synthetic pair: the return names the transfer it gives back, the batch debit its file', () => {
    const statement = parseStatement(sample('synthetic-statement-pt.camt.053.001.02.xml'));
    const pain = readPain001(sampleText('synthetic-payout-pt.pain.001.001.03.xml'));
    if (!pain.ok) throw new Error(pain.code);
    const items = expectedFromPain001(pain.file);
    const lines = withEntryIds(statement.entries);
    const returned = lines.find((e) => e.kind === 'return')!;
    const [first] = candidatesFor(returned, items);
    expect(first).toMatchObject({
      itemId: expect.stringMatching(/STL-2026-04-DOC0311$/),
      score: 1,
      reasons: { amountExact: true, reference: true },
      differenceCents: 0,
    });
    const transfer = lines.find((e) => e.endToEndId === 'STL-2026-04-DOC0042' && e.kind === 'transfer')!;
    expect(candidatesFor(transfer, items)[0]).toMatchObject({
      itemId: expect.stringMatching(/DOC0042$/),
      score: 1,
      reasons: { amountExact: true, reference: true, nameSimilarity: 1, learnedRule: false },
    });
  });

  it('ranks reference, then exact amount with the name, then exact amount, then other amounts', () => {
    const items: ExpectedItem[] = [
      {
        id: 'other-amount',
        type: 'invoice',
        amountCents: 2400,
        date: '2026-05-05',
        counterpartyName: 'Clínica Sorriso',
      },
      {
        id: 'same-amount',
        type: 'invoice',
        amountCents: 2500,
        date: '2026-05-03',
        counterpartyName: 'Ana Lopes',
      },
      {
        id: 'named',
        type: 'invoice',
        amountCents: 2500,
        date: '2026-05-04',
        counterpartyName: 'Clínica Sorriso',
      },
      { id: 'po_9', type: 'payout', amountCents: 2600, date: '2026-04-01', reference: 'po_9' },
      {
        id: 'far',
        type: 'invoice',
        amountCents: 2500,
        date: '2026-04-01',
        counterpartyName: 'Clínica Sorriso',
      },
      { id: 'outgoing', type: 'sepa', amountCents: 2500, date: '2026-05-05' },
    ];
    const line = entry('L1', { description: 'TRF CR CLINICA SORRISO po_9' });
    const ranked = candidatesFor(line, items);
    expect(ranked.map((c) => c.itemId)).toEqual(['po_9', 'named', 'same-amount', 'other-amount']);
    expect(ranked[0]).toMatchObject({
      score: 0.9,
      reasons: { amountExact: false, reference: true, dateDays: 34 },
      differenceCents: -100,
    });
    // 0.5 + 0.3 × name 1 + 0.2 × (5 − 1 days) / 6 = 0.933…
    expect(ranked[1]).toMatchObject({
      score: 0.93,
      reasons: { amountExact: true, reference: false, dateDays: 1, nameSimilarity: 1, learnedRule: false },
    });
    expect(ranked[2]!.reasons).toEqual({
      amountExact: true,
      dateDays: 2,
      reference: false,
      nameSimilarity: 0,
      learnedRule: false,
      phone: false,
      railDay: false,
    });
    expect(ranked[3]!.score).toBeLessThan(0.5);
    expect(candidatesFor(line, items, { limit: 2 })).toEqual(ranked.slice(0, 2));
    expect(candidatesFor(line, items, { windowDays: 40 }).map((c) => c.itemId)).toContain('far');
  });

  it('ranks by the rail’s day: a SEPA credit’s invoice of the business day before first, an MB WAY’s of the same day (decision 0175)', () => {
    // Monday 8 June 2026; Friday 5 June is one business day before it.
    const items: ExpectedItem[] = [
      { id: 'monday', type: 'invoice', amountCents: 2500, date: '2026-06-08', counterpartyName: 'Ana Lopes' },
      { id: 'friday', type: 'invoice', amountCents: 2500, date: '2026-06-05', counterpartyName: 'Ana Lopes' },
    ];
    const sepa = candidatesFor(
      entry('L1', { bookingDate: '2026-06-08', description: 'TRF CR SEPA+ DE ANA LOPES' }),
      items,
    );
    expect(sepa.map((c) => c.itemId)).toEqual(['friday', 'monday']);
    expect(sepa.map((c) => [c.reasons.dateDays, c.reasons.railDay])).toEqual([
      [3, true],
      [0, false],
    ]);
    expect(sepa[0]!.score).toBeGreaterThan(sepa[1]!.score);
    const mbWay = candidatesFor(
      entry('L2', { bookingDate: '2026-06-08', description: 'MB WAY ANA LOPES' }),
      items,
    );
    expect(mbWay.map((c) => c.itemId)).toEqual(['monday', 'friday']);
    expect(mbWay.map((c) => c.reasons.railDay)).toEqual([true, false]);
  });

  it('scores an exact-amount candidate as the matcher scores its suggestion (property)', () => {
    const date = fc.integer({ min: 1, max: 9 }).map((d) => `2026-05-0${d}`);
    const name = fc.constantFrom('Clinica Sorriso', 'Ana Lopes', null);
    const lines = fc.uniqueArray(
      fc.record({
        id: fc.integer({ min: 0, max: 99 }).map((n) => `L${n}`),
        bookingDate: date,
        valueDate: fc.option(date, { nil: null }),
        amountCents: fc.constantFrom(500, 1000, -500),
        description: fc.constantFrom('', 'TRF CR CLINICA SORRISO', 'ANA'),
        counterpartyName: name,
      }),
      { selector: (e) => e.id, maxLength: 20 },
    );
    const items = fc.uniqueArray(
      fc.record({
        id: fc.integer({ min: 0, max: 99 }).map((n) => `I${n}`),
        type: fc.constantFrom('sepa' as const, 'invoice' as const),
        amountCents: fc.constantFrom(500, 1000),
        date: fc.option(date, { nil: null }),
        counterpartyName: name,
      }),
      { selector: (i) => i.id, maxLength: 20 },
    );
    fc.assert(
      fc.property(lines, items, fc.constantFrom(0, 2, 5), (ls, is, windowDays) => {
        const es = ls.map((l) => entry(l.id, l));
        const r = reconcile(es, is, { windowDays });
        for (const s of r.suggestions) {
          const e = es.find((x) => x.id === s.entryIds[0])!;
          const c = candidatesFor(e, is, { windowDays, limit: 1000 }).find((x) => x.itemId === s.itemIds[0]);
          expect(c).toBeDefined();
          expect(c!.reasons.amountExact).toBe(true);
          // A pair alone on both sides is SURE_SUGGESTION, which one line's candidates cannot see (decision 0142).
          if (s.confidence === SURE_SUGGESTION) expect(c!.score).toBeLessThan(SURE_SUGGESTION);
          else expect(c!.score).toBe(s.confidence);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('amounts that add up (splits)', () => {
  it('finds the two payouts one credit pays, and the two credits of one payout', () => {
    const items: ExpectedItem[] = [
      { id: 'po_1', type: 'payout', amountCents: 10_000, date: '2026-05-05' },
      { id: 'po_2', type: 'payout', amountCents: 20_000, date: '2026-05-04' },
      { id: 'po_3', type: 'payout', amountCents: 15_000, date: '2026-05-04' },
      { id: 'sepa', type: 'sepa', amountCents: 20_000, date: '2026-05-04' },
    ];
    const credit = entry('L1', { amountCents: 30_000 });
    expect(splitsFor(credit, items)).toEqual([{ ids: ['po_1', 'po_2'], score: expect.any(Number) }]);
    expect(splitsFor(entry('L2', { amountCents: 45_000 }), items).map((s) => s.ids)).toEqual([
      ['po_1', 'po_2', 'po_3'],
    ]);
    expect(splitsFor(entry('L3', { amountCents: 45_000 }), items, { maxParts: 2 })).toEqual([]);
    // One payout received as two credits: the lines are the parts.
    const credits: Part[] = [
      { id: 'L7', amountCents: 12_000, score: 0.6 },
      { id: 'L8', amountCents: 8_000, score: 0.6 },
      { id: 'L9', amountCents: 5_000, score: 0.6 },
    ];
    expect(exactSums(20_000, credits)).toEqual([{ ids: ['L7', 'L8'], score: 0.6 }]);
  });

  it('returns exactly the subsets of 2–3 parts that add up, best first (property, against brute force)', () => {
    const parts = fc.uniqueArray(
      fc.record({
        id: fc.integer({ min: 0, max: 30 }).map((n) => `P${n}`),
        amountCents: fc.integer({ min: -3, max: 6 }).map((n) => n * 100),
        score: fc.constantFrom(0.2, 0.5, 0.9),
      }),
      { selector: (p) => p.id, maxLength: 9 },
    );
    fc.assert(
      fc.property(
        parts,
        fc.integer({ min: -6, max: 12 }).map((n) => n * 100),
        fc.constantFrom(2, 3),
        (ps, target, maxParts) => {
          const expected: string[] = [];
          for (let mask = 0; mask < 1 << ps.length; mask++) {
            const chosen = ps.filter((_, k) => mask & (1 << k));
            if (chosen.length < 2 || chosen.length > maxParts) continue;
            if (chosen.reduce((s, p) => s + p.amountCents, 0) !== target) continue;
            expected.push(
              chosen
                .map((p) => p.id)
                .sort()
                .join(','),
            );
          }
          const found = exactSums(target, ps, maxParts, 10_000);
          expect(found.map((f) => f.ids.join(',')).sort()).toEqual(expected.sort());
          for (let k = 1; k < found.length; k++)
            expect(found[k - 1]!.score).toBeGreaterThanOrEqual(found[k]!.score);
        },
      ),
      { numRuns: 300 },
    );
  });
});
