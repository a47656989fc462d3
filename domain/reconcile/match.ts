import type { StatementEntry } from '../statements/types';

/** Something we expect to see on the bank statement. Amounts are positive; `direction` gives the sign. */
export interface ExpectedItem {
  id: string;
  type: 'sepa' | 'payout' | 'invoice';
  amountCents: number;
  /** Money leaving the account (SEPA payouts) or arriving (provider payouts). Default: sepa → out, else in. */
  direction?: 'in' | 'out';
  date?: string | null;
  endToEndId?: string | null;
  /** MsgId and PmtInfId of the SEPA file the transaction belongs to. */
  batchIds?: string[];
  /** Payout id or invoice number, as it may appear in the bank's reference or description. */
  reference?: string | null;
  counterpartyName?: string | null;
  counterpartyIban?: string | null;
}

export type MatchEntry = StatementEntry & { id: string };

export type MatchMethod = 'endToEndId' | 'batch' | 'reference' | 'amount-counterparty-date';

export interface Match {
  entryIds: string[];
  itemIds: string[];
  method: MatchMethod;
  /** 1 = certain (reference and amount agree); lower for suggestions and amount discrepancies. */
  confidence: number;
  /** Bank amount minus expected amount, in the item's direction (0 when they agree). */
  differenceCents: number;
}

export interface ReturnLink {
  entryId: string;
  itemId: string;
  reason: string | null;
}

export interface BatchCheck {
  batchId: string;
  entryIds: string[];
  itemIds: string[];
  statementCents: number;
  expectedCents: number;
  /** The whole SEPA file is on the statement: totals agree and every item in it is matched here. */
  complete: boolean;
}

export interface ReconcileResult {
  matches: Match[];
  suggestions: Match[];
  returns: ReturnLink[];
  batches: BatchCheck[];
  unmatchedEntries: string[];
  unmatchedItems: string[];
}

export interface MatchOptions {
  /** Date window for suggestions, in days either side. */
  windowDays?: number;
  /** Candidates looked at per entry for suggestions (nearest dates first); bounds the work. */
  maxCandidates?: number;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

const byId = <T extends { id: string }>(a: T, b: T) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Stable ids for parsed entries: `L<line>` (with `#n` when several entries share a line). */
export function withEntryIds(entries: StatementEntry[]): MatchEntry[] {
  const seen = new Map<number, number>();
  return entries.map((e) => {
    const n = (seen.get(e.lineNumber) ?? 0) + 1;
    seen.set(e.lineNumber, n);
    return { ...e, id: n === 1 ? `L${e.lineNumber}` : `L${e.lineNumber}#${n}` };
  });
}

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
export function reconcile(
  entriesIn: MatchEntry[],
  itemsIn: ExpectedItem[],
  options: MatchOptions = {},
): ReconcileResult {
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

  const suggestions = suggest(entries, items, usedEntries, usedItems, windowDays, maxCandidates);
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
