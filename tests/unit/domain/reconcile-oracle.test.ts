// The matcher against a copy of the implementation it replaced (decision 0039), kept here only as the
// reference oracle: the new one must give identical results, it is only faster when amounts repeat.
// Since decision 0142 the suggestions (rule 5) compare counterparties differently, so only what rules
// 1–4 decide (matches, returns, batches) is compared; suggestions have their own properties
// (reconcile-names.test.ts).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type BatchCheck,
  type ExpectedItem,
  type Match,
  type MatchEntry,
  type MatchOptions,
  type ReconcileResult,
  type ReturnLink,
  reconcile,
} from '../../../domain/reconcile/match';
import type { EntryKind } from '../../../domain/statements/types';
import { matchEntry } from '../../support/match-entries';

/** What rules 1–4 decide: the same since decision 0039. */
const byRule = (r: Omit<ReconcileResult, 'keptToRail'>) => ({
  matches: r.matches,
  returns: r.returns,
  batches: r.batches,
});

describe('the matcher gives what the previous (quadratic) matcher gave', () => {
  const dates = Array.from({ length: 21 }, (_, k) => {
    const d = new Date(Date.UTC(2026, 3, 25 + k));
    return d.toISOString().slice(0, 10);
  });
  const date = fc.constantFrom(...dates);
  const amount = fc.constantFrom(0, 500, 1000, 2500);
  const ref = fc.constantFrom('E2E-1', 'E2E-2', 'E2E-3', 'po_1', null);
  const name = fc.constantFrom('Clinica Sorriso', 'Clínica Sorriso Lda', 'Ana Lopes', 'Sorriso', null);
  const iban = fc.constantFrom(null, 'PT50003300004567890123437', 'PT50001000001112223334480');
  const entries = (max: number, min = 0) =>
    fc.uniqueArray(
      fc.record({
        id: fc.integer({ min: 0, max: 999 }).map((n) => `L${n}`),
        bookingDate: date,
        valueDate: fc.option(date, { nil: null }),
        amountCents: fc.tuple(amount, fc.boolean()).map(([a, neg]) => (neg ? -a : a)),
        currency: fc.constant('EUR'),
        description: fc.constantFrom(
          '',
          'TRF CR STRIPE po_1',
          'TRF CR SEPA+ DE CLINICA SORRISO',
          'DD ANA LOPES',
          'po_1 (E2E-2)',
        ),
        counterpartyName: name,
        counterpartyIban: iban,
        bankReference: fc.constantFrom(null, 'po_1', 'X'),
        endToEndId: ref,
        batchId: fc.constantFrom('B1', 'B2', 'M2', null),
        kind: fc.constantFrom<EntryKind>('transfer', 'return', 'fee', 'other'),
        returnReason: fc.constantFrom(null, 'AC04'),
        lineNumber: fc.nat(50),
      }),
      { selector: (e) => e.id, minLength: min, maxLength: max },
    ) as fc.Arbitrary<MatchEntry[]>;
  const items = (max: number, min = 0) =>
    fc.uniqueArray(
      fc.record({
        id: fc.integer({ min: 0, max: 999 }).map((n) => `I${n}`),
        type: fc.constantFrom('sepa' as const, 'payout' as const, 'invoice' as const),
        amountCents: amount,
        direction: fc.constantFrom<ExpectedItem['direction']>('in', 'out', undefined),
        date: fc.oneof(date, fc.constantFrom(null, undefined, '')),
        endToEndId: ref,
        batchIds: fc.constantFrom<string[] | undefined>(['B1'], ['B2', 'M2'], ['B1', 'B1'], [], undefined),
        reference: fc.constantFrom('po_1', 'PO_1', 'E2E-2', null),
        counterpartyName: name,
        counterpartyIban: iban,
      }),
      { selector: (i) => i.id, minLength: min, maxLength: max },
    );
  const options: fc.Arbitrary<MatchOptions> = fc.record(
    { windowDays: fc.constantFrom(0, 1, 2, 5, 10, 400), maxCandidates: fc.constantFrom(0, 1, 2, 3, 20) },
    { requiredKeys: [] },
  );

  it('on small random statements (property)', () => {
    fc.assert(
      fc.property(entries(30), items(30), options, (es, is, opts) => {
        expect(byRule(reconcile(es, is, opts))).toEqual(byRule(oldReconcile(es, is, opts)));
      }),
      { numRuns: 1000 },
    );
  });

  it('on larger ones where many items share an amount and a day (property)', () => {
    fc.assert(
      fc.property(entries(200, 100), items(200, 100), options, (es, is, opts) => {
        expect(byRule(reconcile(es, is, opts))).toEqual(byRule(oldReconcile(es, is, opts)));
      }),
      { numRuns: 60 },
    );
  });

  it('is order-independent and uses each entry and item at most once (property)', () => {
    fc.assert(
      fc.property(entries(60), items(60), options, fc.nat(), (es, is, opts, seed) => {
        const r = reconcile(es, is, opts);
        let s = seed;
        const shuffle = <T>(list: T[]) =>
          list
            .map((v) => {
              s = (s * 1103515245 + 12345) & 0x7fffffff;
              return { v, k: s };
            })
            .sort((a, b) => a.k - b.k)
            .map((x) => x.v);
        expect(reconcile(shuffle(es), shuffle(is), opts)).toEqual(r);
        const usedEntries = [
          ...[...r.matches, ...r.suggestions].flatMap((m) => m.entryIds),
          ...r.returns.map((x) => x.entryId),
        ];
        const usedItems = [...r.matches, ...r.suggestions].flatMap((m) => m.itemIds);
        expect(new Set(usedEntries).size).toBe(usedEntries.length);
        expect(new Set(usedItems).size).toBe(usedItems.length);
        expect([...usedEntries, ...r.unmatchedEntries].sort()).toEqual(es.map((e) => e.id).sort());
        expect([...usedItems, ...r.unmatchedItems].sort()).toEqual(is.map((i) => i.id).sort());
      }),
      { numRuns: 300 },
    );
  });

  it('on a 3,000 × 3,000 statement with three amounts', () => {
    const es: MatchEntry[] = [];
    const is: ExpectedItem[] = [];
    for (let k = 0; k < 3000; k++) {
      const cents = [2500, 3000, 4500][(k * 7) % 3]!;
      es.push(
        matchEntry({
          id: `L${k}`,
          bookingDate: dates[k % 21]!,
          valueDate: k % 5 === 0 ? dates[(k + 3) % 21]! : null,
          amountCents: cents,
          description: `TRF CR SEPA+ DE CLINICA ${k % 40}`,
          lineNumber: k + 1,
        }),
      );
      is.push({
        id: `I${(k * 7919) % 3001}`,
        type: 'invoice',
        amountCents: [2500, 3000, 4500][k % 3]!,
        date: k % 11 === 0 ? null : dates[(k * 3) % 21]!,
        counterpartyName: `Clinica ${k % 50}`,
      });
    }
    const r = reconcile(es, is);
    expect(r.suggestions.length).toBeGreaterThan(100);
    expect(byRule(r)).toEqual(byRule(oldReconcile(es, is)));
  });
});

describe('the matcher never throws', () => {
  it('whatever the field values, as long as ids are distinct (property)', () => {
    const text = fc.oneof(fc.string(), fc.constantFrom('2026-05-05', '2026-02-30', '0000-00-00', '', 'x'));
    const nullable = fc.option(text, { nil: null });
    const cents = fc.oneof(fc.integer(), fc.constantFrom(0, -0, 1000, -1000, Number.MAX_SAFE_INTEGER));
    const entries = fc.uniqueArray(
      fc.record({
        id: fc.string(),
        bookingDate: text,
        valueDate: nullable,
        amountCents: cents,
        currency: text,
        description: text,
        counterpartyName: nullable,
        counterpartyIban: nullable,
        bankReference: nullable,
        endToEndId: nullable,
        batchId: nullable,
        kind: fc.constantFrom<EntryKind>('transfer', 'return', 'fee', 'other'),
        returnReason: nullable,
        lineNumber: fc.integer(),
      }),
      { selector: (e) => e.id, maxLength: 40 },
    );
    const items = fc.uniqueArray(
      fc.record({
        id: fc.string(),
        type: fc.constantFrom('sepa' as const, 'payout' as const, 'invoice' as const),
        amountCents: cents,
        direction: fc.constantFrom<ExpectedItem['direction']>('in', 'out', undefined),
        date: fc.option(text, { nil: undefined }),
        endToEndId: nullable,
        batchIds: fc.option(fc.array(text, { maxLength: 3 }), { nil: undefined }),
        reference: nullable,
        counterpartyName: nullable,
        counterpartyIban: nullable,
      }),
      { selector: (i) => i.id, maxLength: 40 },
    );
    fc.assert(
      fc.property(entries, items, fc.nat(30), fc.nat(30), (es, is, windowDays, maxCandidates) => {
        const r = reconcile(es, is, { windowDays, maxCandidates });
        expect(r.unmatchedEntries.length + r.returns.length).toBeLessThanOrEqual(es.length);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses duplicate ids and nonsensical options with a RangeError, as documented', () => {
    const item: ExpectedItem = { id: 'a', type: 'payout', amountCents: 1 };
    expect(() => reconcile([], [item, item])).toThrow(RangeError);
    expect(() => reconcile([], [], { windowDays: -1 })).toThrow(RangeError);
    expect(() => reconcile([], [], { windowDays: 1.5 })).toThrow(RangeError);
    expect(() => reconcile([], [], { maxCandidates: Number.NaN })).toThrow(RangeError);
  });
});

// ---------------------------------------------------------------------------------------------
// The previous implementation of domain/reconcile/match.ts `reconcile`, verbatim apart from the
// name (commit a4db1f9). Do not "fix" it: it is the reference the new matcher is compared with.

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

const byId = <T extends { id: string }>(a: T, b: T) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function signedExpected(item: ExpectedItem): number {
  const dir = item.direction ?? (item.type === 'sepa' ? 'out' : 'in');
  return dir === 'out' ? -item.amountCents : item.amountCents;
}

function tokens(s: string | null | undefined): string[] {
  if (!s) return [];
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter((t) => t.length >= 3);
}

/** 0 = contradicts, 0.5 = nothing to compare, up to 1 = same IBAN or every name word present. */
function counterpartyScore(entry: MatchEntry, item: ExpectedItem, entryWords: () => Set<string>): number {
  if (item.counterpartyIban && entry.counterpartyIban)
    return item.counterpartyIban === entry.counterpartyIban ? 1 : 0;
  const want = tokens(item.counterpartyName);
  if (want.length === 0) return 0.5;
  const have = entryWords();
  if (have.size === 0) return 0.5;
  const found = want.filter((t) => have.has(t)).length;
  return found === 0 ? 0 : 0.5 + (0.5 * found) / want.length;
}

const dayCache = new Map<string, number>();

/** Days since 1970 for a 'YYYY-MM-DD' date (memoised: a statement has few distinct dates). */
function dayNumber(date: string): number {
  let n = dayCache.get(date);
  if (n === undefined) {
    n = Math.floor(
      Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) /
        86_400_000,
    );
    if (dayCache.size > 100_000) dayCache.clear();
    dayCache.set(date, n);
  }
  return n;
}

function dateDistance(entry: MatchEntry, itemDay: number): number {
  const d = Math.abs(itemDay - dayNumber(entry.bookingDate));
  return entry.valueDate ? Math.min(d, Math.abs(itemDay - dayNumber(entry.valueDate))) : d;
}

/**
 * Bank entries against expected items. Order: returns linked to the transaction they return;
 * EndToEndId; a batch debit against its SEPA file; payout/invoice references; then exact amount +
 * counterparty + date window as suggestions only. Each entry and each item is used at most once,
 * and inputs are sorted by id first, so the result does not depend on their order.
 */
function oldReconcile(
  entriesIn: MatchEntry[],
  itemsIn: ExpectedItem[],
  options: MatchOptions = {},
): Omit<ReconcileResult, 'keptToRail'> {
  const windowDays = options.windowDays ?? 5;
  const maxCandidates = options.maxCandidates ?? 20;
  const entries = [...entriesIn].sort(byId);
  const items = [...itemsIn].sort(byId);
  for (const list of [entries, items]) {
    for (let i = 1; i < list.length; i++)
      if (list[i]!.id === list[i - 1]!.id) throw new RangeError(`duplicate id ${list[i]!.id}`);
  }
  // Sets of the objects themselves: identity hashing is much cheaper than hashing id strings.
  const usedEntries = new Set<MatchEntry>();
  const usedItems = new Set<ExpectedItem>();
  const matches: Match[] = [];
  const returns: ReturnLink[] = [];
  const free = (e: MatchEntry) => !usedEntries.has(e);

  const byEndToEnd = new Map<string, ExpectedItem[]>();
  for (const item of items) {
    if (item.endToEndId) push(byEndToEnd, item.endToEndId, item);
  }

  // Returns first: they carry the returned transaction's EndToEndId and must not be taken for it.
  const returnedItems = new Set<ExpectedItem>();
  for (const e of entries) {
    if (e.kind !== 'return' || !e.endToEndId) continue;
    const item = byEndToEnd.get(e.endToEndId)?.find((i) => !returnedItems.has(i));
    if (!item) continue;
    returnedItems.add(item);
    usedEntries.add(e);
    returns.push({ entryId: e.id, itemId: item.id, reason: e.returnReason });
  }

  for (const e of entries) {
    if (!free(e) || !e.endToEndId) continue;
    const item = byEndToEnd
      .get(e.endToEndId)
      ?.find((i) => !usedItems.has(i) && Math.sign(signedExpected(i)) === Math.sign(e.amountCents));
    if (!item) continue;
    usedEntries.add(e);
    usedItems.add(item);
    const differenceCents = e.amountCents - signedExpected(item);
    matches.push({
      entryIds: [e.id],
      itemIds: [item.id],
      method: 'endToEndId',
      confidence: differenceCents === 0 ? 1 : 0.9,
      differenceCents,
    });
  }

  const byBatch = new Map<string, ExpectedItem[]>();
  for (const item of items) {
    item.batchIds?.forEach((b, k, all) => {
      if (all.indexOf(b) === k) push(byBatch, b, item);
    });
  }
  for (const e of entries) {
    if (!free(e) || !e.batchId || e.endToEndId) continue;
    const open = (byBatch.get(e.batchId) ?? []).filter((i) => !usedItems.has(i));
    const expected = open.reduce((s, i) => s + signedExpected(i), 0);
    if (open.length === 0 || expected !== e.amountCents) continue;
    usedEntries.add(e);
    for (const i of open) usedItems.add(i);
    matches.push({
      entryIds: [e.id],
      itemIds: open.map((i) => i.id),
      method: 'batch',
      confidence: 1,
      differenceCents: 0,
    });
  }

  const byReference = new Map<string, ExpectedItem[]>();
  for (const item of items) {
    if (item.reference) push(byReference, item.reference.toUpperCase(), item);
  }
  if (byReference.size > 0) {
    for (const e of entries) {
      if (!free(e)) continue;
      const words = [e.endToEndId, e.bankReference, ...e.description.split(/[\s,;:()/]+/)];
      let found: ExpectedItem | undefined;
      for (const w of words) {
        found = w
          ? byReference
              .get(w.toUpperCase())
              ?.find((i) => !usedItems.has(i) && signedExpected(i) === e.amountCents)
          : undefined;
        if (found) break;
      }
      if (!found) continue;
      usedEntries.add(e);
      usedItems.add(found);
      matches.push({
        entryIds: [e.id],
        itemIds: [found.id],
        method: 'reference',
        confidence: 1,
        differenceCents: 0,
      });
    }
  }

  const suggestions = [
    ...suggestReturns(entries, items, usedEntries, usedItems),
    ...suggest(entries, items, usedEntries, usedItems, windowDays, maxCandidates),
  ].sort((a, b) => (a.entryIds[0]! < b.entryIds[0]! ? -1 : 1));
  const matchedBy = new Map<string, string>();
  for (const m of matches) for (const i of m.itemIds) matchedBy.set(i, m.entryIds[0]!);
  const batches = batchChecks(entries, byBatch, matchedBy);

  return {
    matches,
    suggestions,
    returns,
    batches,
    unmatchedEntries: entries.filter(free).map((e) => e.id),
    unmatchedItems: items.filter((i) => !usedItems.has(i)).map((i) => i.id),
  };
}

/**
 * Returns naming no EndToEndId (decision 0123), entry by entry in id order: the free SEPA item of the
 * amount given back, executed 0–30 days before; best score, then fewest days, then smallest id. A
 * name not found in the return's words does not contradict (the bank writes a return's text).
 */
function suggestReturns(
  entries: MatchEntry[],
  items: ExpectedItem[],
  usedEntries: Set<MatchEntry>,
  usedItems: Set<ExpectedItem>,
): Match[] {
  const out: Match[] = [];
  for (const e of entries) {
    if (usedEntries.has(e) || e.kind !== 'return') continue;
    const words = new Set(tokens(`${e.counterpartyName ?? ''} ${e.description}`));
    const scored = items
      .filter((i) => !usedItems.has(i) && i.type === 'sepa' && signedExpected(i) === -e.amountCents)
      .map((i) => {
        const days = i.date ? dayNumber(e.bookingDate) - dayNumber(i.date) : 0;
        let party = counterpartyScore(e, i, () => words);
        if (party === 0 && !(i.counterpartyIban && e.counterpartyIban)) party = 0.5;
        return {
          i,
          days,
          party,
          score: Math.round((0.5 + 0.3 * party + (0.2 * (30 - days)) / 31) * 100) / 100,
        };
      })
      .filter((c) => c.days >= 0 && c.days <= 30 && c.party > 0)
      .sort((a, b) => b.score - a.score || a.days - b.days || byId(a.i, b.i));
    const best = scored[0];
    if (!best) continue;
    usedEntries.add(e);
    usedItems.add(best.i);
    out.push({
      entryIds: [e.id],
      itemIds: [best.i.id],
      method: 'amount-counterparty-date',
      confidence: Math.min(best.score, 0.95),
      differenceCents: 0,
    });
  }
  return out;
}

function suggest(
  entries: MatchEntry[],
  items: ExpectedItem[],
  usedEntries: Set<MatchEntry>,
  usedItems: Set<ExpectedItem>,
  windowDays: number,
  maxCandidates: number,
): Match[] {
  // Per amount: dated items sorted by day (binary-searched to the window), undated ones apart.
  const dated = new Map<number, { i: ExpectedItem; day: number }[]>();
  const undated = new Map<number, ExpectedItem[]>();
  for (const i of items) {
    if (usedItems.has(i)) continue;
    if (i.date) push(dated, signedExpected(i), { i, day: dayNumber(i.date) });
    else push(undated, signedExpected(i), i);
  }
  for (const pool of dated.values()) pool.sort((a, b) => a.day - b.day || byId(a.i, b.i));
  const candidates: { e: MatchEntry; i: ExpectedItem; score: number; days: number }[] = [];
  for (const e of entries) {
    if (usedEntries.has(e) || e.kind === 'return') continue;
    const near: { i: ExpectedItem; days: number }[] = (undated.get(e.amountCents) ?? [])
      .slice(0, maxCandidates)
      .map((i) => ({ i, days: 0 }));
    const pool = dated.get(e.amountCents);
    if (pool) {
      const booked = dayNumber(e.bookingDate);
      const valued = e.valueDate ? dayNumber(e.valueDate) : booked;
      const to = Math.max(booked, valued) + windowDays;
      for (
        let k = lowerBound(pool, Math.min(booked, valued) - windowDays);
        k < pool.length && pool[k]!.day <= to;
        k++
      ) {
        const days = dateDistance(e, pool[k]!.day);
        if (days <= windowDays) near.push({ i: pool[k]!.i, days });
      }
    }
    if (near.length === 0) continue;
    near.sort((a, b) => a.days - b.days || byId(a.i, b.i));
    let cached: Set<string> | undefined;
    const words = () => {
      cached ??= new Set(tokens(`${e.counterpartyName ?? ''} ${e.description}`));
      return cached;
    };
    for (const { i, days } of near.slice(0, maxCandidates)) {
      const party = counterpartyScore(e, i, words);
      if (party === 0) continue;
      const score =
        Math.round((0.5 + 0.3 * party + (0.2 * (windowDays - days)) / (windowDays + 1)) * 100) / 100;
      candidates.push({ e, i, score, days });
    }
  }
  candidates.sort((a, b) => b.score - a.score || a.days - b.days || byId(a.e, b.e) || byId(a.i, b.i));
  const out: Match[] = [];
  for (const c of candidates) {
    if (usedEntries.has(c.e) || usedItems.has(c.i)) continue;
    usedEntries.add(c.e);
    usedItems.add(c.i);
    out.push({
      entryIds: [c.e.id],
      itemIds: [c.i.id],
      method: 'amount-counterparty-date',
      confidence: Math.min(c.score, 0.95),
      differenceCents: 0,
    });
  }
  return out.sort((a, b) => (a.entryIds[0]! < b.entryIds[0]! ? -1 : 1));
}

function lowerBound(pool: { day: number }[], day: number): number {
  let lo = 0;
  let hi = pool.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (pool[mid]!.day < day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function batchChecks(
  entries: MatchEntry[],
  byBatch: Map<string, ExpectedItem[]>,
  matchedBy: Map<string, string>,
): BatchCheck[] {
  const groups = new Map<string, MatchEntry[]>();
  for (const e of entries) {
    if (e.batchId && e.kind !== 'return') push(groups, e.batchId, e);
  }
  const out: BatchCheck[] = [];
  for (const [batchId, group] of [...groups].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const batchItems = byBatch.get(batchId) ?? [];
    const entryIds = new Set(group.map((e) => e.id));
    const statementCents = group.reduce((s, e) => s + e.amountCents, 0);
    const expectedCents = batchItems.reduce((s, i) => s + signedExpected(i), 0);
    out.push({
      batchId,
      entryIds: [...entryIds],
      itemIds: batchItems.map((i) => i.id),
      statementCents,
      expectedCents,
      complete:
        batchItems.length > 0 &&
        statementCents === expectedCents &&
        batchItems.every((i) => entryIds.has(matchedBy.get(i.id) ?? '')),
    });
  }
  return out;
}
