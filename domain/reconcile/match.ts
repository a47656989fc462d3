import type { StatementEntry } from '../statements/types';
import { DayLists, lowerBound } from './day-lists';
import {
  dayNumber,
  inDescriptionWords,
  partyScore,
  referenceWords,
  signedExpected,
  suggestionScore,
  tokens,
} from './features';
import { ItemNames } from './item-names';
import { BookingDays, expectedLag, lagCost, lagSpread, MAX_SPAN_DAYS } from './lags';
import { ibanText, type LearnedRules, learnedText, withLearnedRule } from './learned';
import {
  beginsWith,
  counterpartyAgreement,
  lineSides,
  mayBeCutAtSpace,
  type PrintedName,
  printedName,
  sameWords,
} from './names';
import { lastThree, nationalDigits } from './phones';
import { samePrint } from './print';

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
  /** The customer's phone ("+351 964 123 072"), compared with an MB WAY line's masked one (decision 0160). */
  counterpartyPhone?: string | null;
  /**
   * Who the item is owed by or to (a customer, a doctor), when known: a line whose counterpart could be
   * two items of one party is told by the date (decision 0146), and learned rules name parties.
   */
  partyId?: string | null;
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
  /**
   * Whether the statement's payers were judged to pay on their rail's day (`keepsToRail`), or as `railKept`
   * said: null when too few of its lines tell (decision 0184).
   */
  keptToRail: boolean | null;
}

/** How long after a transfer its return may arrive: the EPC SCT rulebook's 3 banking days, with weekends and late banks to spare. */
export const RETURN_WINDOW_DAYS = 30;

export interface MatchOptions {
  /** Date window for suggestions, in days either side. */
  windowDays?: number;
  /** Candidates looked at per entry for suggestions (nearest dates first); bounds the work. */
  maxCandidates?: number;
  /**
   * What the operator's past matches taught (`learned.ts`): a line whose counterparty text was matched
   * to a party before agrees fully with that party's items of its amount in the window, found by party
   * whatever its name says. A rule under the line's payer IBAN (`ibanText`) comes first and outweighs
   * the name (decision 0160).
   */
  learned?: LearnedRules;
  /**
   * Whether the statement's payers pay on their rail's day, as judged over the whole file
   * (`ReconcileResult.keptToRail`; null: too few lines told): for matching again some of its lines, too few
   * to judge it.
   */
  railKept?: boolean | null;
  /**
   * Lines never sure, nor taking a counterpart surely from another line's rivals: a bank's copy of a line a
   * person decided, matched again beside the payer's other lines (`sayAgain`, decision 0185).
   */
  neverSure?: ReadonlySet<string>;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Stable ids for parsed entries: `L<line>` (with `#n` when several entries share a line). */
export function withEntryIds(entries: StatementEntry[]): MatchEntry[] {
  const seen = new Map<number, number>();
  return entries.map((e) => {
    const n = (seen.get(e.lineNumber) ?? 0) + 1;
    seen.set(e.lineNumber, n);
    return { ...e, id: n === 1 ? `L${e.lineNumber}` : `L${e.lineNumber}#${n}` };
  });
}

/** Indexes (into the id-sorted items) in id order, and how many of the first ones are known to be used. */
interface Queue {
  list: number[];
  pos: number;
}

function enqueue<K>(map: Map<K, Queue>, key: K, index: number): void {
  const q = map.get(key);
  if (q) q.list.push(index);
  else map.set(key, { list: [index], pos: 0 });
}

/**
 * First index of the queue not yet used. Used flags are only ever set, so the skipped prefix stays
 * used: every index is stepped over once in all, not once per lookup.
 */
function firstFree(q: Queue | undefined, used: Uint8Array): number {
  if (!q) return -1;
  while (q.pos < q.list.length && used[q.list[q.pos]!]) q.pos++;
  return q.pos < q.list.length ? q.list[q.pos]! : -1;
}

/**
 * Items by reference (upper case) and signed amount, each a queue in id order. A reference names one
 * item almost always: it is kept as that item's index, and only a reference several items carry gets a
 * queue per amount (a map and a queue for each of 100,000 references cost more than the lookups).
 */
class ReferenceIndex {
  /** An item's index, or -1: several items, in `several`. */
  private readonly one = new Map<string, number>();
  private readonly several = new Map<string, Map<number, Queue>>();

  constructor(private readonly signed: number[]) {}

  get size(): number {
    return this.one.size;
  }

  /** Items are added in index order. */
  add(reference: string, k: number): void {
    const known = this.one.get(reference);
    if (known === undefined) {
      this.one.set(reference, k);
      return;
    }
    let byAmount = this.several.get(reference);
    if (!byAmount) {
      byAmount = new Map();
      this.several.set(reference, byAmount);
      enqueue(byAmount, this.signed[known]!, known);
      this.one.set(reference, -1);
    }
    enqueue(byAmount, this.signed[k]!, k);
  }

  /** The first item of this reference and signed amount not yet `used`, else -1. */
  firstFree(reference: string, amount: number, used: Uint8Array): number {
    const k = this.one.get(reference);
    if (k === undefined) return -1;
    if (k >= 0) return this.signed[k] === amount && !used[k] ? k : -1;
    return firstFree(this.several.get(reference)!.get(amount), used);
  }
}

function checkCount(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be an integer ≥ 0`);
  return value;
}

/**
 * Bank entries against expected items. Order: returns linked to the transaction they return;
 * EndToEndId; a batch debit against its SEPA file; payout/invoice references; then exact amount +
 * counterparty + date window as suggestions only. Each entry and each item is used at most once,
 * and inputs are sorted by id first, so the result does not depend on their order.
 *
 * Every rule looks candidates up in maps keyed by what must agree (reference, sign, amount, day),
 * so the work grows with n log n, not with n × (items sharing an amount); decision 0039.
 */
export function reconcile(
  entriesIn: MatchEntry[],
  itemsIn: ExpectedItem[],
  options: MatchOptions = {},
): ReconcileResult {
  const windowDays = checkCount('windowDays', options.windowDays ?? 5);
  const maxCandidates = checkCount('maxCandidates', options.maxCandidates ?? 20);
  const entries = sortedById(entriesIn);
  const items = sortedById(itemsIn);
  // From here on entries and items are their positions in the id-sorted lists: index order is id order.
  const usedE = new Uint8Array(entries.length);
  const usedI = new Uint8Array(items.length);
  /** The entry each item is matched to (not suggested), for the batch report. */
  const matchedTo = new Int32Array(items.length).fill(-1);
  const signed = items.map(signedExpected);
  const matches: Match[] = [];
  const returns: ReturnLink[] = [];

  const byEndToEnd = new Map<string, number[]>();
  for (let k = 0; k < items.length; k++) {
    const id = items[k]!.endToEndId;
    if (id) push(byEndToEnd, id, k);
  }

  // Returns first: they carry the returned transaction's EndToEndId and must not be taken for it.
  // Each item is returned once, so the items of one EndToEndId are returned in id order.
  const returnedUpTo = new Map<string, number>();
  for (let k = 0; k < entries.length; k++) {
    const e = entries[k]!;
    if (e.kind !== 'return' || !e.endToEndId) continue;
    const list = byEndToEnd.get(e.endToEndId);
    const at = returnedUpTo.get(e.endToEndId) ?? 0;
    if (!list || at >= list.length) continue;
    returnedUpTo.set(e.endToEndId, at + 1);
    usedE[k] = 1;
    returns.push({ entryId: e.id, itemId: items[list[at]!]!.id, reason: e.returnReason });
  }

  // EndToEndId, same direction. An EndToEndId names one item almost always; when it names several,
  // one queue per sign (-1, 0, 1 at 0, 1, 2) is built on first use.
  const bySign = new Map<string, Queue[]>();
  for (let k = 0; k < entries.length; k++) {
    const e = entries[k]!;
    if (usedE[k] || !e.endToEndId) continue;
    const list = byEndToEnd.get(e.endToEndId);
    const s = Math.sign(e.amountCents);
    if (!list || Number.isNaN(s)) continue;
    let i = -1;
    if (list.length === 1) {
      if (!usedI[list[0]!] && Math.sign(signed[list[0]!]!) === s) i = list[0]!;
    } else {
      let queues = bySign.get(e.endToEndId);
      if (!queues) {
        queues = [0, 1, 2].map(() => ({ list: [], pos: 0 }));
        for (const j of list) {
          const sj = Math.sign(signed[j]!);
          if (!Number.isNaN(sj)) queues[sj + 1]!.list.push(j);
        }
        bySign.set(e.endToEndId, queues);
      }
      i = firstFree(queues[s + 1], usedI);
    }
    if (i < 0) continue;
    usedE[k] = 1;
    usedI[i] = 1;
    matchedTo[i] = k;
    const differenceCents = e.amountCents - signed[i]!;
    matches.push({
      entryIds: [e.id],
      itemIds: [items[i]!.id],
      method: 'endToEndId',
      confidence: differenceCents === 0 ? 1 : 0.9,
      differenceCents,
    });
  }

  // Unexpanded batch debits. Each batch keeps the count and sum of its open items, updated as items
  // are taken, so an entry whose amount does not fit is refused without walking the batch.
  const byBatch = new Map<string, number[]>();
  const itemBatches: string[][] = items.map((item, k) => {
    const ids = item.batchIds ?? [];
    const distinct = ids.length < 2 ? ids : ids.filter((b, j) => ids.indexOf(b) === j);
    for (const b of distinct) push(byBatch, b, k);
    return distinct;
  });
  const open = new Map<string, { count: number; cents: number }>();
  for (const [b, list] of byBatch) {
    let count = 0;
    let cents = 0;
    for (const k of list)
      if (!usedI[k]) {
        count++;
        cents += signed[k]!;
      }
    open.set(b, { count, cents });
  }
  for (let k = 0; k < entries.length; k++) {
    const e = entries[k]!;
    if (usedE[k] || !e.batchId || e.endToEndId) continue;
    const o = open.get(e.batchId);
    if (!o || o.count === 0 || o.cents !== e.amountCents) continue;
    // The running sum agrees: confirm with the exact sum, in id order, of the open items.
    const openItems = byBatch.get(e.batchId)!.filter((i) => !usedI[i]);
    const expected = openItems.reduce((s, i) => s + signed[i]!, 0);
    if (openItems.length === 0 || expected !== e.amountCents) continue;
    usedE[k] = 1;
    for (const i of openItems) {
      usedI[i] = 1;
      matchedTo[i] = k;
      for (const b of itemBatches[i]!) {
        const ob = open.get(b)!;
        ob.count--;
        ob.cents -= signed[i]!;
      }
    }
    matches.push({
      entryIds: [e.id],
      itemIds: openItems.map((i) => items[i]!.id),
      method: 'batch',
      confidence: 1,
      differenceCents: 0,
    });
  }

  // Payout/invoice references, exact amount: one queue per reference and amount.
  const byReference = new ReferenceIndex(signed);
  // The amounts some reference is kept for, and those some reference a description's word could be: a
  // line of another amount finds nothing, and one of the first only its EndToEndId or bank reference
  // (its description is not split for nothing: sales documents' numbers print "FT 2026A/17").
  const referenced = new Set<number>();
  const referencedByWord = new Set<number>();
  for (let k = 0; k < items.length; k++) {
    const ref = items[k]!.reference;
    const amount = signed[k]!;
    if (!ref || Number.isNaN(amount)) continue;
    const key = ref.toUpperCase();
    referenced.add(amount);
    if (inDescriptionWords(key)) referencedByWord.add(amount);
    byReference.add(key, k);
  }
  if (byReference.size > 0) {
    for (let k = 0; k < entries.length; k++) {
      const e = entries[k]!;
      if (usedE[k] || !referenced.has(e.amountCents)) continue;
      let found = -1;
      for (const w of referenceWords(e, referencedByWord.has(e.amountCents))) {
        found = byReference.firstFree(w, e.amountCents, usedI);
        if (found >= 0) break;
      }
      if (found < 0) continue;
      usedE[k] = 1;
      usedI[found] = 1;
      matchedTo[found] = k;
      matches.push({
        entryIds: [e.id],
        itemIds: [items[found]!.id],
        method: 'reference',
        confidence: 1,
        differenceCents: 0,
      });
    }
  }

  // Returns first: a return's amount is not a payment's. In entry order, as each list already is.
  const returnsSuggested = suggestReturns(entries, items, signed, usedE, usedI);
  const suggested = suggest(entries, items, signed, usedE, usedI, windowDays, maxCandidates, options);
  const suggestions = [...returnsSuggested, ...suggested.suggestions].sort((a, b) =>
    a.entryIds[0]! < b.entryIds[0]! ? -1 : 1,
  );
  const batches = batchChecks(entries, items, signed, byBatch, matchedTo);

  return {
    matches,
    suggestions,
    returns,
    batches,
    unmatchedEntries: entries.filter((_, k) => !usedE[k]).map((e) => e.id),
    unmatchedItems: items.filter((_, k) => !usedI[k]).map((i) => i.id),
    keptToRail: suggested.keptToRail,
  };
}

/**
 * Returns that name no EndToEndId (a CSV's "DEVOLUÇÃO TRF AC04", an MT940 line without EREF):
 * suggested against the SEPA transfer whose amount they give back — the same amount, the other
 * sign (+7,50 returns a −7,50 transfer) — executed at most RETURN_WINDOW_DAYS before the return; the
 * counterparty weighs as in `suggest`, then the nearest date, then the item id. A suggestion only:
 * an amount alone does not say which doctor's transfer came back.
 */
function suggestReturns(
  entries: MatchEntry[],
  items: ExpectedItem[],
  signed: number[],
  usedE: Uint8Array,
  usedI: Uint8Array,
): Match[] {
  const byAmount = new Map<number, number[]>();
  for (let k = 0; k < entries.length; k++) {
    const e = entries[k]!;
    if (!usedE[k] && e.kind === 'return') push(byAmount, -e.amountCents, k);
  }
  if (byAmount.size === 0) return [];
  const candidates = new Map<number, number[]>();
  for (let i = 0; i < items.length; i++)
    if (!usedI[i] && items[i]!.type === 'sepa' && byAmount.has(signed[i]!)) push(candidates, signed[i]!, i);
  const out: Match[] = [];
  for (const [amount, entryIndexes] of byAmount) {
    for (const k of entryIndexes) {
      const e = entries[k]!;
      const day = dayNumber(e.bookingDate);
      let best = -1;
      let bestScore = 0;
      let bestDays = 0;
      for (const i of candidates.get(amount) ?? []) {
        if (usedI[i]) continue;
        const item = items[i]!;
        const days = item.date ? day - dayNumber(item.date) : 0;
        if (!(days >= 0 && days <= RETURN_WINDOW_DAYS)) continue;
        const party = returnParty(e, item);
        if (party === 0) continue;
        const score = suggestionScore(party, days, RETURN_WINDOW_DAYS);
        if (score > bestScore || (score === bestScore && days < bestDays)) {
          best = i;
          bestScore = score;
          bestDays = days;
        }
      }
      if (best < 0) continue;
      usedE[k] = 1;
      usedI[best] = 1;
      out.push({
        entryIds: [e.id],
        itemIds: [items[best]!.id],
        method: 'amount-counterparty-date',
        confidence: Math.min(bestScore, 0.95),
        differenceCents: 0,
      });
    }
  }
  return out;
}

/**
 * How well a return's counterparty agrees with a transfer: a different IBAN contradicts; the same
 * IBAN, or the doctor's name among the return's words, counts as in `partyScore`. A return's text
 * is the bank's ("DEVOLUCAO TRF SEPA AC04") far more often than the doctor's name, so a name not
 * found there says nothing (0.5), unlike a payment's.
 */
function returnParty(entry: MatchEntry, item: ExpectedItem): number {
  if (entry.counterpartyIban && item.counterpartyIban)
    return entry.counterpartyIban === item.counterpartyIban ? 1 : 0;
  const wanted = tokens(item.counterpartyName);
  const have = new Set(tokens(`${entry.counterpartyName ?? ''} ${entry.description}`));
  const found = wanted.filter((w) => have.has(w)).length;
  return found === 0 ? 0.5 : partyScore(found, wanted.length, have.size);
}

/**
 * A suggestion's confidence when its line and counterpart are each other's only best — no rival left
 * on either side (`Rivals`, decision 0146; 0142 asked for the only best agreement): what the console's
 * "score ≥ x" selection takes at once. Others stay below it. Never 1: that is a reference.
 */
export const SURE_SUGGESTION = 0.95;

/** A pair's agreement in hundredths is at most this: a name or account agreeing fully. */
const MAX_HUNDREDTHS = 100;

const NOT_RIVAL = 0;
const RIVAL = 1;
const RIVAL_UNLESS_SAME_PARTY = 2;

/**
 * Whether a pair of key `otherKey` rivals the chosen pair of key `key` on one side: it agrees better; or
 * as well — except when booked ahead of its counterpart against a chosen pair booked on or after it,
 * and except, later by date, when it is the same party's.
 */
/** A pair's key as a rank, higher better: agreement first, then the lower date cost. */
const pairRank = (key: number, stride: number) => {
  const hundredths = Math.floor(key / stride);
  return hundredths * stride + (stride - 1 - (key - hundredths * stride));
};

function rivalry(key: number, otherKey: number, stride: number, windowDays: number): number {
  const hundredths = Math.floor(key / stride);
  const h = Math.floor(otherKey / stride);
  if (h !== hundredths) return h > hundredths ? RIVAL : NOT_RIVAL;
  const cost = key - hundredths * stride;
  const otherCost = otherKey - h * stride;
  if (otherCost > windowDays && cost <= windowDays) return NOT_RIVAL;
  return otherCost > cost ? RIVAL_UNLESS_SAME_PARTY : RIVAL;
}

/** What saying a pair sure asks of its counterparts and lines beyond their keys (`Rivals.sure`). */
interface Kin {
  /** Both counterparts name one party (`partyId`). */
  sameParty(a: number, b: number): boolean;
  /** The counterpart names a party: a customer's document, a doctor's transfer. */
  hasParty(ik: number): boolean;
  /** One party's counterparts of one kind, amount and day (decision 0177). */
  twins(a: number, b: number): boolean;
  /** The line holds a twin of the counterpart. */
  holdsTwin(line: number, ik: number): boolean;
  /** The two lines are printed alike (`samePrint`): one payment booked twice, or two nothing tells apart. */
  printedAlike(a: number, b: number): boolean;
  /** The line prints counterpart `ik`'s name whole where a field could have ended at a space, and `other`'s name begins with it. */
  alikeByCut(ek: number, ik: number, other: number): boolean;
  /**
   * The statement's payers pay on their rail's day (`keepsToRail`: true): a lag off the rail rules a party's
   * counterpart out; or some pay days late (false); or too few lines tell (null).
   */
  keptToRail: boolean | null;
  /**
   * Asked when some pay late: another party's counterpart still open that the line's name points at and
   * agrees with as well as with `ik` (`key`), dated in the `LATE_DAYS` before the line's window (decision 0184).
   */
  paidLate(ek: number, ik: number, key: number): boolean;
}

/**
 * Every pair the suggestions compared, by entry and (after `close`) by item, with its key (agreement in
 * hundredths × stride + date cost), for saying when a chosen pair is sure (SURE_SUGGESTION): when
 * neither side has a rival left. A rival of a pair is another pair of its line (or its counterpart)
 * that agrees at least as well — unless it is the same party's, a name printed alike, and later by date
 * (a customer's two 25 € invoices of one week: the date tells them apart, as it tells a person) — and
 * whose other side was not already taken by a sure pair (its counterpart is someone else's, surely).
 * Two customers whose names print alike stay rivals when their dates do not tell them apart: a person
 * must choose. Another party's counterpart later by date is no rival when the line's rail does not book
 * at its lag (`lagSpread`) and another line fits it better: that line explains it (decision 0173).
 * Decision 0146 (0142 asked for each side's only best agreement).
 */
class Rivals {
  /**
   * 1: the line's nearest by date were cut at maxCandidates; more may lie beyond: never sure. 2: the line
   * is never sure for another reason (`MatchOptions.neverSure`), by its account neither.
   */
  readonly cut: Uint8Array;
  /** Taken by a sure pair: no longer anyone else's rival. */
  readonly surelyE: Uint8Array;
  readonly surelyI: Uint8Array;
  /** Each line's rail's `lagSpread`: a date cost beyond it is a lag the rail does not book at. */
  readonly spread: Uint8Array;
  private readonly entryStart: Int32Array;
  /** Each line's best pair (`pairRank`). */
  private readonly entryBestRank: Int32Array;
  /** Each counterpart's best pair (`pairRank`), filled by `close`. */
  private itemBestRank = new Int32Array(0);
  /** The pairs in the order added (entry after entry): line, counterpart and key; `size` of them are used. */
  private entryLines: Int32Array;
  private entryItems: Int32Array;
  private entryKeys: Int32Array;
  private size = 0;
  /**
   * The pairs of each key in the order added, as linked lists: the assignment's buckets (`eachInTakingOrder`).
   * A key's slot: higher agreement first, then the lower date cost.
   */
  private readonly slotFirst: Int32Array;
  private readonly slotLast: Int32Array;
  private nextInSlot: Int32Array;
  private itemStart = new Int32Array(0);
  private itemEntries = new Int32Array(0);
  private itemKeys = new Int32Array(0);
  private last = -1;

  constructor(
    entryCount: number,
    private readonly stride: number,
  ) {
    // Room for a few pairs a line, grown as the lines so far foretell: every copy left behind is garbage.
    const room = Math.max(1024, 4 * entryCount);
    this.entryLines = new Int32Array(room);
    this.entryItems = new Int32Array(room);
    this.entryKeys = new Int32Array(room);
    this.nextInSlot = new Int32Array(room);
    this.slotFirst = new Int32Array((MAX_HUNDREDTHS + 1) * stride).fill(-1);
    this.slotLast = new Int32Array(this.slotFirst.length).fill(-1);
    this.cut = new Uint8Array(entryCount);
    this.surelyE = new Uint8Array(entryCount);
    this.spread = new Uint8Array(entryCount);
    this.surelyI = new Uint8Array(0);
    this.entryStart = new Int32Array(entryCount + 1);
    this.entryBestRank = new Int32Array(entryCount).fill(-1);
  }

  /** Pairs are added entry after entry (ascending): agreement in hundredths (0–100) and date cost (below stride). */
  add(ek: number, ik: number, hundredths: number, cost: number): void {
    for (let k = this.last + 1; k <= ek; k++) this.entryStart[k] = this.size;
    this.last = ek;
    const p = this.size++;
    if (p === this.entryItems.length) {
      // Room for what the lines so far foretell of all of them (a tenth more), at least half again.
      const room = Math.max(Math.ceil(1.5 * p), Math.ceil((1.1 * p * this.entryBestRank.length) / (ek + 1)));
      this.entryLines = growTo(this.entryLines, room);
      this.entryItems = growTo(this.entryItems, room);
      this.entryKeys = growTo(this.entryKeys, room);
      this.nextInSlot = growTo(this.nextInSlot, room);
    }
    const key = hundredths * this.stride + cost;
    this.entryLines[p] = ek;
    this.entryItems[p] = ik;
    this.entryKeys[p] = key;
    const slot = (MAX_HUNDREDTHS - hundredths) * this.stride + cost;
    this.nextInSlot[p] = -1;
    if (this.slotLast[slot]! < 0) this.slotFirst[slot] = p;
    else this.nextInSlot[this.slotLast[slot]!] = p;
    this.slotLast[slot] = p;
    const rank = pairRank(key, this.stride);
    if (rank > this.entryBestRank[ek]!) this.entryBestRank[ek] = rank;
  }

  /** Done adding: the ends of the entries' lists, and the same pairs by item. */
  close(itemCount: number, stride: number): void {
    const n = this.size;
    for (let k = this.last + 1; k < this.entryStart.length; k++) this.entryStart[k] = n;
    (this as { surelyI: Uint8Array }).surelyI = new Uint8Array(itemCount);
    this.itemStart = new Int32Array(itemCount + 1);
    for (let p = 0; p < n; p++) this.itemStart[this.entryItems[p]! + 1]!++;
    for (let k = 0; k < itemCount; k++) this.itemStart[k + 1]! += this.itemStart[k]!;
    const fill = this.itemStart.slice(0, itemCount);
    this.itemEntries = new Int32Array(n);
    this.itemKeys = new Int32Array(n);
    this.itemBestRank = new Int32Array(itemCount).fill(-1);
    for (let ek = 0; ek + 1 < this.entryStart.length; ek++)
      for (let p = this.entryStart[ek]!; p < this.entryStart[ek + 1]!; p++) {
        const at = fill[this.entryItems[p]!]!++;
        this.itemEntries[at] = ek;
        this.itemKeys[at] = this.entryKeys[p]!;
        const rank = pairRank(this.entryKeys[p]!, stride);
        if (rank > this.itemBestRank[this.entryItems[p]!]!) this.itemBestRank[this.entryItems[p]!] = rank;
      }
  }

  /**
   * Each pair in the order the assignment takes them: best agreement first, then the lower date cost,
   * then as added — entry after entry, each entry's in its own order (decision 0036's ties).
   */
  eachInTakingOrder(visit: (ek: number, ik: number, key: number) => void): void {
    for (let slot = 0; slot < this.slotFirst.length; slot++)
      for (let p = this.slotFirst[slot]!; p >= 0; p = this.nextInSlot[p]!)
        visit(this.entryLines[p]!, this.entryItems[p]!, this.entryKeys[p]!);
  }

  /** The lines of `ids` are never sure, nor by their account (`MatchOptions.neverSure`). */
  neverSure(entries: readonly MatchEntry[], ids: ReadonlySet<string>): void {
    for (let ek = 0; ek < entries.length; ek++) if (ids.has(entries[ek]!.id)) this.cut[ek] = 2;
  }

  /** Line `ek` has pairs. */
  paired(ek: number): boolean {
    return this.entryStart[ek + 1]! > this.entryStart[ek]!;
  }

  /** Line `ek` has one pair only. */
  single(ek: number): boolean {
    return this.entryStart[ek + 1]! - this.entryStart[ek]! === 1;
  }

  /** Each pair of line `ek`: its counterpart and key. */
  eachOfEntry(ek: number, visit: (ik: number, key: number) => void): void {
    for (let p = this.entryStart[ek]!; p < this.entryStart[ek + 1]!; p++)
      visit(this.entryItems[p]!, this.entryKeys[p]!);
  }

  /** Each pair of counterpart `ik` (after `close`): its line and key. */
  eachOfItem(ik: number, visit: (ek: number, key: number) => void): void {
    for (let p = this.itemStart[ik]!; p < this.itemStart[ik + 1]!; p++)
      visit(this.itemEntries[p]!, this.itemKeys[p]!);
  }

  sure(ek: number, ik: number, key: number, stride: number, windowDays: number, kin: Kin): boolean {
    // A line booked ahead of its counterpart is never sure of it, whatever is left.
    const hundredths = Math.floor(key / stride);
    if (this.cut[ek] || key - hundredths * stride > windowDays) return false;
    for (let p = this.entryStart[ek]!; p < this.entryStart[ek + 1]!; p++) {
      const other = this.entryItems[p]!;
      if (other === ik || this.surelyI[other]) continue;
      const otherKey = this.entryKeys[p]!;
      const otherCost = otherKey - Math.floor(otherKey / stride) * stride;
      let r = rivalry(key, otherKey, stride, windowDays);
      // A whole name printed where a bank's field could have ended at a space agrees no better than a
      // longer name it begins (decision 0178): that one rivals it as if it agreed as well.
      if (r === NOT_RIVAL && kin.alikeByCut(ek, ik, other))
        r = rivalry(key, hundredths * stride + otherCost, stride, windowDays);
      if (r !== NOT_RIVAL && kin.twins(other, ik)) continue;
      // Another party's counterpart agreeing as well but later by date is no rival when this line's
      // rail does not book at that lag and a line of its own fits it better (decision 0173): José's
      // Monday invoice, paid by the J SIMOES transfer of Tuesday, is not Thursday's J SIMOES transfer's.
      // When the statement shows its payers pay on the rail's day, a party's counterpart off the rail is
      // no rival even if no line explains it: it is unpaid (decision 0178); when it shows some pay days
      // late, it is a rival whatever explains it: that payer may be this line (decision 0184). A
      // counterpart with no party (a payout: no name tells it) still needs its own line.
      if (
        r === RIVAL ||
        (r === RIVAL_UNLESS_SAME_PARTY &&
          !kin.sameParty(other, ik) &&
          (otherCost <= this.spread[ek]! ||
            (kin.keptToRail === false && kin.hasParty(other)) ||
            ((kin.keptToRail !== true || !kin.hasParty(other)) &&
              this.itemBestRank[other]! <= pairRank(otherKey, stride))))
      )
        return false;
    }
    for (let p = this.itemStart[ik]!; p < this.itemStart[ik + 1]!; p++) {
      const other = this.itemEntries[p]!;
      if (other === ek) continue;
      const otherKey = this.itemKeys[p]!;
      if (this.surelyE[other]) {
        // A line printed as one surely another counterpart's is that payment booked twice, or the payer's
        // second: never sure of a counterpart that one agrees with as well (decision 0185), but a twin.
        if (
          rivalry(key, otherKey, stride, windowDays) !== NOT_RIVAL &&
          kin.printedAlike(other, ek) &&
          !kin.holdsTwin(other, ik)
        )
          return false;
        continue;
      }
      const r = rivalry(key, otherKey, stride, windowDays);
      // A line holding the counterpart's twin: the two lines take the two twins either way. A line
      // printed alike: one of the two pays the counterpart, and nothing tells which (decision 0185).
      if (r !== NOT_RIVAL && (kin.holdsTwin(other, ik) || kin.printedAlike(other, ek))) continue;
      // Lines have no party. One agreeing as well but later by date is no rival when it has a better
      // pair of its own (a customer's Tuesday payment, whose Monday invoice fits it better) — unless the
      // counterpart is a party's and the statement's payers do not keep to their rail: that line may be
      // this document's, paid late (decision 0184).
      if (
        r === RIVAL ||
        (r === RIVAL_UNLESS_SAME_PARTY &&
          ((kin.keptToRail === false && kin.hasParty(ik)) ||
            this.entryBestRank[other]! <= pairRank(otherKey, stride)))
      )
        return false;
    }
    return kin.keptToRail !== false || !kin.paidLate(ek, ik, key);
  }
}

/** Open items of one amount: distinct days ascending, and per day its item indexes in id order. */
interface DayPool {
  days: number[];
  lists: number[][];
}

const RAY_STEP = [-1, 1, -1, 1];

/**
 * The most items a line's printed name brings to compare (decision 0180): beyond it the name tells them
 * apart no better than the date — one word every counterpart shares ("CLINICA"), a common surname with
 * an initial — and the line is cut, never sure. Twice the nearest taken without a name; on the labelled
 * 100k month 0.4 % of the sure pairs are lost against no bound, and a month whose names all share one
 * word is compared in bounded work instead of quadratic (out of memory at 100,000 lines).
 */
export const NAMED_AT_MOST = 40;

/**
 * How many days before a line's window a document of another customer its name agrees with as well is
 * still a rival when the statement's payers do not keep to their rail (decision 0184): one window more. A
 * payment 1–3 business days late over a weekend is 6–9 calendar days after its document.
 */
const LATE_DAYS = 5;

/**
 * Suggestions: per entry, the open items of the same signed amount its printed name points at (or
 * its learned rule's party's), else the `maxCandidates` nearest in date (booking or value date, within
 * the window; undated items count as 0 days; ties by id), minus those whose counterparty contradicts;
 * then every candidate pair, best agreement first, then the lower date cost (`lagCost`: business days
 * against the rail's lag, a line booked ahead of its counterpart last), entry id, item id, taken
 * greedily while both sides are free (decisions 0142, 0146).
 *
 * The nearest items are found by walking outwards from the entry's dates over the distinct days of
 * its amount, stopping as soon as enough are found; the pairs are collected into one bucket per
 * (agreement, date cost), which they enter already in (entry, item) order, so no global sort is needed.
 */
function suggest(
  entries: MatchEntry[],
  items: ExpectedItem[],
  signed: number[],
  usedE: Uint8Array,
  usedI: Uint8Array,
  windowDays: number,
  maxCandidates: number,
  { learned, railKept, neverSure }: Pick<MatchOptions, 'learned' | 'railKept' | 'neverSure'>,
): { suggestions: Match[]; keptToRail: boolean | null } {
  const datedByDay = new Map<number, Map<number, number[]>>();
  const undated = new Map<number, number[]>();
  /** Each open item's day (NaN: undated), for the lag between it and a line. */
  const itemDay = new Float64Array(items.length).fill(Number.NaN);
  for (let k = 0; k < items.length; k++) {
    if (usedI[k]) continue;
    const date = items[k]!.date;
    if (!date) {
      push(undated, signed[k]!, k);
      continue;
    }
    const day = dayNumber(date);
    itemDay[k] = day;
    if (Number.isNaN(day)) continue; // not a date: never within a window
    let byDay = datedByDay.get(signed[k]!);
    if (!byDay) {
      byDay = new Map();
      datedByDay.set(signed[k]!, byDay);
    }
    push(byDay, day, k);
  }
  const pools = new Map<number, DayPool>();
  let firstDay = Number.POSITIVE_INFINITY;
  let lastDay = Number.NEGATIVE_INFINITY;
  for (const [amount, byDay] of datedByDay) {
    const days = [...byDay.keys()].sort((a, b) => a - b);
    pools.set(amount, { days, lists: days.map((d) => byDay.get(d)!) });
    firstDay = Math.min(firstDay, days[0]!);
    lastDay = Math.max(lastDay, days[days.length - 1]!);
  }
  // Every pair lies within the window of an item's day: the booking days of that span, counted once.
  const calendar =
    pools.size === 0 ? new BookingDays(0, -1) : new BookingDays(firstDay, lastDay + windowDays + 1);
  // The date cost of each day of the items' span for the line `costFor` says (`dayCost`); of a span longer
  // than the calendar's, the days past it are worked out each time (a typed array ignores the write).
  const costFor = new Int32Array(pools.size === 0 ? 0 : Math.min(lastDay - firstDay + 1, MAX_SPAN_DAYS));
  const costOf = new Int32Array(costFor.length);

  // Counterparty names (decision 0142): each open item's name words are kept once, and the dated items
  // of each amount are indexed by each of their words of 3+ letters, in day order, so an entry finds
  // the items its printed name points at without reading every item of its amount.
  const names = new ItemNames(items);
  const wordsOf = (ik: number) => names.words(ik);
  // The lines whose printed name a bank's field could have ended at a space (decision 0178): their words.
  const cutAtSpace: (string[] | undefined)[] = new Array(entries.length);
  const amounts = new Set(entries.map((e) => e.amountCents));
  const { byName, byPhone } = counterpartIndexes(pools, items, names, amounts);
  // Learned rules: the open items of each party a rule names, so a line finds them whatever it prints.
  const byParty = new Map<string, number[]>();
  if (learned && learned.size > 0) {
    const named = new Set(learned.values());
    for (let k = 0; k < items.length; k++) {
      const party = items[k]!.partyId;
      if (!usedI[k] && party && named.has(party)) push(byParty, party, k);
    }
  }
  // The items a line's sources found so far, marked with the line's `stamp` before another source adds its
  // own: each source holds an item once, so only then can one come twice.
  const seen = new Int32Array(items.length);
  // The line's agreement with each list of name words it met (`stamp`: the line's), for the items that
  // agree by name only (their `itemSides` share none of the line's `lineSides`).
  const agreedFor = new Int32Array(items.length);
  const agreed = new Float64Array(items.length);
  const agreement = (e: MatchEntry, ik: number, printed: PrintedName, sides: number, stamp: number) => {
    if ((names.sides[ik]! & sides) !== 0) return counterpartyAgreement(e, items[ik]!, printed, wordsOf(ik));
    const list = names.listId(ik);
    if (agreedFor[list] !== stamp) {
      agreedFor[list] = stamp;
      agreed[list] = counterpartyAgreement(e, items[ik]!, printed, wordsOf(ik));
    }
    return agreed[list]!;
  };
  // A pair's date cost (`lagCost`): 0…windowDays for a line on or after its counterpart's day, beyond
  // for one before it.
  const stride = 2 * windowDays + 1;
  // Every pair compared, kept per entry (in entry order) for saying afterwards which chosen pairs are
  // sure (`Rivals`); each side's party.
  const pairs = new Rivals(entries.length, stride);
  // Two items are one party's when both name the same `partyId` (a name does not say it: two customers
  // may share one): a tie between them is settled by the date, a tie between parties is a person's.
  const sameParty = (a: number, b: number) => {
    const party = items[a]!.partyId;
    return party != null && party === items[b]!.partyId;
  };
  // One party's counterparts of one kind, amount and day are one to a line that prints no reference:
  // either taken leaves the same books and the same customer owing the same (decision 0177). The
  // assignment takes the first in id order.
  const twins = (a: number, b: number) =>
    sameParty(a, b) && items[a]!.date === items[b]!.date && items[a]!.type === items[b]!.type;
  // Per-entry scratch: the chosen items and their date costs; the lists of one distance level and their
  // days (NaN: the undated), merged when several.
  const near = new Near();
  const level: number[][] = [];
  const levelDays: number[] = [];
  const merged = new Near();
  // Rays over the days of the entry's amount: 0 and 1 go left and right of the booking day, 2 and 3
  // of the value day when it differs. A day belongs to the anchor it is nearest to (booking on a tie);
  // a ray skips days that are not its own, so each day is reached once, at its distance
  // min(|day − booking|, |day − value|), and the rays reach days in order of that distance.
  const rayAnchor = new Float64Array(4);
  const rayPos = new Int32Array(4);
  const settle = (r: number, days: number[], rays: number, booked: number, valued: number) => {
    let p = rayPos[r]!;
    if (rays === 4) {
      while (p >= 0 && p < days.length) {
        const db = Math.abs(days[p]! - booked);
        const dv = Math.abs(days[p]! - valued);
        if (r < 2 ? db <= dv : dv < db) break;
        p += RAY_STEP[r]!;
      }
    }
    rayPos[r] = p;
  };

  for (let ek = 0; ek < entries.length; ek++) {
    const e = entries[ek]!;
    if (usedE[ek] || e.kind === 'return') continue;
    const undatedList = undated.get(e.amountCents);
    const pool = pools.get(e.amountCents);
    if (!undatedList && !pool) continue;
    near.length = 0;

    let rays = 0;
    let booked = 0;
    let valued = 0;
    if (pool) {
      booked = dayNumber(e.bookingDate);
      valued = e.valueDate ? dayNumber(e.valueDate) : booked;
      if (!Number.isNaN(booked) && !Number.isNaN(valued)) {
        rays = valued === booked ? 2 : 4;
        const atBooked = lowerBound(pool.days, booked);
        rayAnchor[0] = rayAnchor[1] = booked;
        rayPos[0] = atBooked - 1;
        rayPos[1] = atBooked;
        if (rays === 4) {
          const atValued = lowerBound(pool.days, valued);
          rayAnchor[2] = rayAnchor[3] = valued;
          rayPos[2] = atValued - 1;
          rayPos[3] = atValued;
        }
        for (let r = 0; r < rays; r++) settle(r, pool.days, rays, booked, valued);
      }
    }

    // The items the entry's printed name points at; only when it points at none, the nearest by date
    // (items without a name — a payout, a provider's invoice — or a name the bank did not print).
    const stamp = ek + 1;
    const printed = printedName(e);
    if (mayBeCutAtSpace(printed.words)) cutAtSpace[ek] = printed.words;
    const sides = lineSides(e, printed);
    const lag = expectedLag(e);
    // A pair's date cost (`lagCost`) from the nearer of the booking and value dates, worked out once per
    // day for the line (`stamp`): its counterparts share a few days.
    const dayCost = (day: number) => {
      const at = day - firstDay;
      if (costFor[at] === stamp) return costOf[at]!;
      const booking = lagCost(booked - day, calendar.lag(day, booked), lag, windowDays);
      const cost =
        valued === booked
          ? booking
          : Math.min(booking, lagCost(valued - day, calendar.lag(day, valued), lag, windowDays));
      costFor[at] = stamp;
      costOf[at] = cost;
      return cost;
    };
    const costAt = (day: number) => (Number.isNaN(day) ? 0 : dayCost(day));
    const list = rays > 0 ? namedList(byName, e.amountCents, printed.words) : -1;
    const namesCut =
      list >= 0 && nearestOf(byName.lists, list, booked, valued, windowDays, NAMED_AT_MOST, dayCost, near);
    const markSeen = () => {
      for (let j = 0; j < near.length; j++) seen[near.items[j]!] = stamp;
    };
    // A phone instead of a name: the items of its amount whose phone ends in its last three digits.
    const phoneKey = printed.phone ? lastThree(printed.phone) : -1;
    if (rays > 0 && phoneKey >= 0) {
      const list = byPhone.find(e.amountCents, phoneKey);
      if (list >= 0) {
        markSeen();
        inWindow(byPhone, list, booked, valued, windowDays, dayCost, seen, stamp, near);
      }
    }
    // The payer's IBAN taught a party (decision 0160): its items agree fully, whatever the name says.
    const ibanParty = byParty.size > 0 ? learned!.get(ibanText(e.counterpartyIban) ?? '') : undefined;
    const learnedParty =
      ibanParty ?? (byParty.size > 0 ? learned!.get(learnedText(e, printed.words) ?? '') : undefined);
    if (learnedParty !== undefined) {
      markSeen();
      for (const ik of byParty.get(learnedParty) ?? []) {
        if (seen[ik] === stamp || signed[ik] !== e.amountCents) continue;
        if (!(calendarDays(e, itemDay[ik]!) <= windowDays)) continue;
        near.push(ik, costAt(itemDay[ik]!));
      }
    }
    const named = near.length > 0;
    // Pairs enter their bucket in (entry, item) order, the ties of decision 0036; the name's are in day order.
    if (named) near.sortByItem();
    let first = true;
    while (!named && near.length < maxCandidates) {
      // The next distance level: the nearest head of any ray (and the undated items at distance 0).
      let dist = Number.POSITIVE_INFINITY;
      for (let r = 0; r < rays; r++) {
        const p = rayPos[r]!;
        if (p < 0 || p >= pool!.days.length) continue;
        dist = Math.min(dist, Math.abs(pool!.days[p]! - rayAnchor[r]!));
      }
      if (first && undatedList) dist = 0;
      first = false;
      if (dist > windowDays) break;
      level.length = 0;
      levelDays.length = 0;
      if (dist === 0 && undatedList) {
        level.push(undatedList);
        levelDays.push(Number.NaN);
      }
      for (let r = 0; r < rays; r++) {
        const p = rayPos[r]!;
        if (p < 0 || p >= pool!.days.length || Math.abs(pool!.days[p]! - rayAnchor[r]!) !== dist) continue;
        level.push(pool!.lists[p]!);
        levelDays.push(pool!.days[p]!);
        rayPos[r] = p + RAY_STEP[r]!;
        settle(r, pool!.days, rays, booked, valued);
      }
      const need = maxCandidates - near.length;
      if (level.length === 1) {
        const list = level[0]!;
        const cost = costAt(levelDays[0]!);
        for (let j = 0; j < list.length && j < need; j++) {
          near.push(list[j]!, cost);
        }
      } else {
        merged.length = 0;
        for (let l = 0; l < level.length; l++) {
          const list = level[l]!;
          const cost = costAt(levelDays[l]!);
          for (let j = 0; j < list.length && j < need; j++) {
            merged.push(list[j]!, cost);
          }
        }
        merged.sortByItem();
        for (let j = 0; j < merged.length && j < need; j++) near.push(merged.items[j]!, merged.costs[j]!);
      }
    }
    if (near.length === 0) continue;
    const cut = namesCut || (!named && near.length >= maxCandidates);
    pairs.spread[ek] = lagSpread(lag);
    // More items of the amount lay beyond the nearest by date: never sure then.
    if (cut) pairs.cut[ek] = 1;

    const { items: nearItems, costs: nearCosts, length: nearCount } = near;
    for (let j = 0; j < nearCount; j++) {
      const ik = nearItems[j]!;
      const ofLearnedParty = learnedParty !== undefined && items[ik]!.partyId === learnedParty;
      const party =
        ibanParty !== undefined && ofLearnedParty
          ? 1
          : withLearnedRule(agreement(e, ik, printed, sides, stamp), ofLearnedParty);
      if (party === 0) continue;
      const hundredths = Math.round(party * 100);
      const cost = nearCosts[j]!;
      // Taken by how well the counterparty agrees first, then the date (decision 0142, 0146): a name
      // printed in full outweighs initials a day nearer; a line booked after its counterpart's day
      // before one booked ahead of it.
      pairs.add(ek, ik, hundredths, cost);
    }
  }
  pairs.close(items.length, stride);

  // Greedily, best score first, then nearest date, then (entry, item).
  const chosen = new Int32Array(entries.length).fill(-1);
  const chosenKey = new Int32Array(entries.length);
  const chooser = new Int32Array(items.length).fill(-1);
  pairs.eachInTakingOrder((ek, ik, key) => {
    if (usedE[ek] || usedI[ik]) return;
    usedE[ek] = 1;
    usedI[ik] = 1;
    chosen[ek] = ik;
    chosenKey[ek] = key;
    chooser[ik] = ek;
  });
  // Sure pairs, to the end: a pair taken sure removes itself as a rival of others, which may then be
  // sure in turn — José's invoice surely the JOSE SIMOES transfer's leaves the J SIMOES transfer one
  // rival fewer, as a person crossing off what is settled sees (decision 0176). Each round only adds
  // sure pairs, and a pair sure once stays sure, so the end is the same in any order.
  // Said from a work list: a pair taken sure puts back the lines it was a rival of, whose pairs are
  // looked at again. Then the accounts those sure pairs name (decision 0177), and the sure pairs that
  // crossing off leaves, until neither adds one.
  // The lines the suggestions compared that print their payer's account: each one's account, each
  // account's lines, and the party its sure pairs name (null: two parties).
  const accounts: Accounts = { of: new Map(), lines: new Map(), payer: new Map() };
  for (let ek = 0; ek < entries.length; ek++) {
    const account = pairs.paired(ek) ? ibanText(entries[ek]!.counterpartyIban) : null;
    if (!account) continue;
    accounts.of.set(ek, account);
    push(accounts.lines, account, ek);
  }
  if (neverSure) pairs.neverSure(entries, neverSure);
  const keptToRail = railKept !== undefined ? railKept : keepsToRail(pairs, chosen, chosenKey, items, stride);
  // Not a closure over the lines' loop's variables: a variable a closure captures is read from memory there.
  const late = new LateRivals(entries, items, names, byName, windowDays);
  const kin: Kin = {
    keptToRail,
    sameParty,
    hasParty: (ik) => items[ik]!.partyId != null,
    twins,
    holdsTwin: (line, ik) => chosen[line]! >= 0 && twins(chosen[line]!, ik),
    printedAlike: (a, b) => samePrint(entries[a]!, entries[b]!),
    alikeByCut(ek, ik, other) {
      const words = cutAtSpace[ek];
      return !!words && sameWords(wordsOf(ik), words) && beginsWith(wordsOf(other), words);
    },
    paidLate: (ek, ik, key) => late.rival(ek, ik, Math.floor(key / stride), pairs.surelyI),
  };
  const queue: number[] = [];
  const queued = new Uint8Array(entries.length);
  const choice: Choice = {
    chosen,
    chosenKey,
    chooser,
    usedE,
    usedI,
    byAccount: new Uint8Array(entries.length),
    recheck(ek) {
      if (queued[ek] || chosen[ek]! < 0 || pairs.surelyE[ek]) return;
      queued[ek] = 1;
      queue.push(ek);
    },
    markSure(ek, ik) {
      pairs.surelyE[ek] = 1;
      pairs.surelyI[ik] = 1;
      const account = accounts.of.get(ek);
      const party = items[ik]!.partyId;
      if (account && party) {
        const known = accounts.payer.get(account);
        accounts.payer.set(account, known === undefined || known === party ? party : null);
      }
      pairs.eachOfItem(ik, choice.recheck);
      pairs.eachOfEntry(ek, (other) => {
        if (chooser[other]! >= 0) choice.recheck(chooser[other]!);
      });
    },
  };
  for (let ek = entries.length - 1; ek >= 0; ek--) choice.recheck(ek);
  do {
    while (queue.length > 0) {
      const ek = queue.pop()!;
      queued[ek] = 0;
      const ik = chosen[ek]!;
      if (ik >= 0 && !pairs.surelyE[ek] && pairs.sure(ek, ik, chosenKey[ek]!, stride, windowDays, kin))
        choice.markSure(ek, ik);
    }
    payersByAccount(accounts, items, pairs, choice, twins, stride, windowDays);
  } while (queue.length > 0);
  const out: Match[] = [];
  for (let ek = 0; ek < entries.length; ek++) {
    if (chosen[ek]! < 0) continue;
    const key = chosenKey[ek]!;
    const hundredths = Math.floor(key / stride);
    out.push({
      entryIds: [entries[ek]!.id],
      itemIds: [items[chosen[ek]!]!.id],
      method: 'amount-counterparty-date',
      // Below the sure, the score of `candidatesFor`: the date as the pair's cost against the rail's lag
      // (decision 0175), which the console explains.
      confidence: pairs.surelyE[ek]
        ? SURE_SUGGESTION
        : Math.min(
            suggestionScore(hundredths / 100, Math.min(key - hundredths * stride, windowDays), windowDays),
            SURE_SUGGESTION - 0.01,
          ),
      differenceCents: 0,
    });
  }
  return { suggestions: out, keptToRail };
}

/**
 * Another party's documents a line may pay late (decision 0184): those still open in the list of the name
 * index its printed name points at (`namedList`, the same list its counterparts came from), dated in the
 * `LATE_DAYS` before its window. The list is looked up again here, for the few pairs asked, not kept for
 * every line.
 */
class LateRivals {
  constructor(
    private readonly entries: readonly MatchEntry[],
    private readonly items: readonly ExpectedItem[],
    private readonly names: ItemNames,
    private readonly index: NameIndex,
    private readonly windowDays: number,
  ) {}

  /** One of them agrees with line `ek`'s name as well as counterpart `ik`, a party's, does (`hundredths`). */
  rival(ek: number, ik: number, hundredths: number, surelyI: Uint8Array): boolean {
    const party = this.items[ik]!.partyId;
    if (party == null) return false;
    const e = this.entries[ek]!;
    const booked = dayNumber(e.bookingDate);
    const valued = e.valueDate ? dayNumber(e.valueDate) : booked;
    if (Number.isNaN(booked) || Number.isNaN(valued)) return false;
    const printed = printedName(e);
    const list = namedList(this.index, e.amountCents, printed.words);
    if (list < 0) return false;
    const windowStarts = Math.min(booked, valued) - this.windowDays;
    const { days, starts, items: listed } = this.index.lists;
    const from = lowerBound(days, windowStarts - LATE_DAYS, starts[list]!, starts[list + 1]!);
    const to = lowerBound(days, windowStarts, from, starts[list + 1]!);
    for (let j = from; j < to; j++) {
      const other = listed[j]!;
      if (surelyI[other] || this.items[other]!.partyId === party) continue;
      const agrees = counterpartyAgreement(e, this.items[other]!, printed, this.names.words(other));
      if (Math.round(agrees * 100) >= hundredths) return true;
    }
    return false;
  }
}

/** The lines that print their payer's account (decision 0177). */
interface Accounts {
  /** Each such line's account (`ibanText`). */
  of: Map<number, string>;
  /** Each account's lines. */
  lines: Map<string, number[]>;
  /** The party an account's sure pairs name; null when they name two. */
  payer: Map<string, string | null>;
}

/** The assignment `suggest` chose: each line's counterpart and key, each counterpart's line. */
interface Choice {
  chosen: Int32Array;
  chosenKey: Int32Array;
  chooser: Int32Array;
  usedE: Uint8Array;
  usedI: Uint8Array;
  /** 1: the line's payer's account chose its counterpart (`payersByAccount`); no other line takes it. */
  byAccount: Uint8Array;
  /** Line `ek`'s chosen pair is to be looked at again. */
  recheck(ek: number): void;
  /** Line `ek` is surely counterpart `ik`'s: the lines it rivalled are looked at again. */
  markSure(ek: number, ik: number): void;
}

/**
 * One account, one payer (decision 0177): a line whose payer's IBAN another line of the file carries,
 * surely paired with a party's counterpart, is that party's payment too — as a person who sees the same
 * account pay Maria Simões's invoice on the 3rd reads the same account's "J SIMOES" of the 17th. Among
 * the line's own pairs (its name agrees already: the account only tells customers printed alike apart),
 * the party's counterpart nearest by date is chosen (the line that held it takes the line's former one
 * when it was paired with it, else none), and it is sure when nothing else the account leaves standing
 * rivals it: none of the party's counterparts as near, no line of the same account as near to it, no
 * pair whose name agrees fully. An account two parties were surely paid from names neither. A pair taken
 * sure, and a line whose counterpart changed, go back on the work list of `choice`.
 */
function payersByAccount(
  accounts: Accounts,
  items: ExpectedItem[],
  pairs: Rivals,
  choice: Choice,
  twins: (a: number, b: number) => boolean,
  stride: number,
  windowDays: number,
): void {
  const { chosen, chosenKey, chooser, byAccount } = choice;
  const costOf = (key: number) => key - Math.floor(key / stride) * stride;
  const full = 100 * stride;
  for (const [account, party] of accounts.payer) {
    if (party !== null) for (const ek of accounts.lines.get(account)!) payerOf(ek, account, party);
  }

  function payerOf(ek: number, account: string, party: string): void {
    if (pairs.surelyE[ek] || pairs.cut[ek] === 2) return;
    if (!byAccount[ek]) {
      let best = -1;
      let bestKey = 0;
      pairs.eachOfEntry(ek, (ik, key) => {
        if (pairs.surelyI[ik] || items[ik]!.partyId !== party) return;
        if (best < 0 || costOf(key) < costOf(bestKey) || (costOf(key) === costOf(bestKey) && ik < best)) {
          best = ik;
          bestKey = key;
        }
      });
      // Another line the account chose already holds it: an equal claim, left to a person.
      if (best < 0 || (chooser[best]! >= 0 && byAccount[chooser[best]!])) return;
      take(pairs, choice, ek, best, bestKey);
      byAccount[ek] = 1;
    }
    const best = chosen[ek]!;
    const cost = costOf(chosenKey[ek]!);
    if (cost > windowDays) return; // booked ahead of its counterpart: never sure
    // The account makes the name agree fully; what still agrees fully rivals it.
    const key = full + cost;
    let rivalled = false;
    pairs.eachOfEntry(ek, (ik, otherKey) => {
      if (ik === best || pairs.surelyI[ik]) return;
      const own = items[ik]!.partyId === party;
      if (own && twins(ik, best)) return;
      const r = rivalry(key, own ? full + costOf(otherKey) : otherKey, stride, windowDays);
      if (r === RIVAL || (r === RIVAL_UNLESS_SAME_PARTY && !own)) rivalled = true;
    });
    pairs.eachOfItem(best, (other, otherKey) => {
      if (other === ek || pairs.surelyE[other]) return;
      const same = accounts.of.get(other) === account;
      if (rivalry(key, same ? full + costOf(otherKey) : otherKey, stride, windowDays) !== NOT_RIVAL)
        rivalled = true;
    });
    if (!rivalled) choice.markSure(ek, best);
  }
}

/** Lines it takes to judge whether a statement's payers pay on their rail's day (`keepsToRail`). */
const RAIL_JUDGED_FROM = 1000;
/** At most this share of them booked off the rail's lag. */
const RAIL_OFF_AT_MOST = 0.001;

/**
 * Whether the statement shows its payers pay on their rail's day (decision 0178): among its lines paired
 * with one counterpart only, a party's, at most 1 in 1,000 booked off the rail's lag, over at least 1,000
 * such lines. A document dated the day its payment was made is met on the rail's day; customers who pay
 * days after their document's date show here first (5 % of them late: 2.5 % of these lines off the rail),
 * and then the rail's day is no evidence against another customer's document. Null: fewer such lines, too
 * few to tell (decision 0184).
 */
function keepsToRail(
  pairs: Rivals,
  chosen: Int32Array,
  chosenKey: Int32Array,
  items: ExpectedItem[],
  stride: number,
): boolean | null {
  let alone = 0;
  let offRail = 0;
  for (let ek = 0; ek < chosen.length; ek++) {
    const ik = chosen[ek]!;
    if (ik < 0 || items[ik]!.partyId == null || !pairs.single(ek)) continue;
    alone++;
    const key = chosenKey[ek]!;
    if (key - Math.floor(key / stride) * stride > pairs.spread[ek]!) offRail++;
  }
  return alone < RAIL_JUDGED_FROM ? null : offRail <= alone * RAIL_OFF_AT_MOST;
}

/**
 * Line `ek` takes counterpart `ik` (its pair of key `key`): the line that held `ik` takes `ek`'s former
 * counterpart when it was paired with it, else is left with none; a counterpart no one holds is open.
 */
function take(pairs: Rivals, choice: Choice, ek: number, ik: number, key: number): void {
  const { chosen, chosenKey, chooser, usedE, usedI } = choice;
  const assign = (line: number, item: number, lineKey: number) => {
    chosen[line] = item;
    chosenKey[line] = lineKey;
    chooser[item] = line;
    usedE[line] = 1;
    usedI[item] = 1;
    choice.recheck(line);
  };
  const former = chosen[ek]!;
  const holder = chooser[ik]!;
  if (holder === ek) return;
  if (former >= 0) {
    chooser[former] = -1;
    usedI[former] = 0;
  }
  if (holder >= 0) {
    chosen[holder] = -1;
    usedE[holder] = 0;
    if (former >= 0)
      pairs.eachOfEntry(holder, (other, otherKey) => {
        if (other === former) assign(holder, former, otherKey);
      });
  }
  assign(ek, ik, key);
}

/**
 * The dated open items that have a name, per amount and word of their name (3+ letters) keyed with the
 * name's initial ("J SIMOES": the first printed word is always the first name or its initial, so only
 * names of that initial can agree).
 */
interface NameIndex {
  /** Each word of 3+ letters of an item's name, numbered. */
  wordIds: Map<string, number>;
  /** Under each signed amount and `nameKey(initial, word)`. */
  lists: DayLists;
}

/** One number for (the name's initial, a word's number): initials are A–Z. */
const nameKey = (initial: string, wordId: number) => wordId * 32 + (initial.charCodeAt(0) & 31);

/**
 * The open dated items of the amounts some entry has, from the pools by signed amount, indexed two ways
 * in one pass: by their name's initial and each word of it (3+ letters), and by their phone's last three
 * digits (those every bank shows, decision 0160). The pools hold each amount's items by day, in id order
 * within a day: read in that order, every list is built in (day, index) order.
 */
function counterpartIndexes(
  pools: Map<number, DayPool>,
  items: ExpectedItem[],
  names: ItemNames,
  amounts: Set<number>,
): { byName: NameIndex; byPhone: DayLists } {
  const byName: NameIndex = { wordIds: new Map(), lists: new DayLists() };
  const byPhone = new DayLists();
  // Customers pay several times: one name, one phone, many items; a name's keys and a phone's digits are
  // read once.
  const keysOf: Int32Array[] = [];
  const tailOf = new Map<string, number>();
  for (const [amount, pool] of pools) {
    if (!amounts.has(amount)) continue;
    for (let d = 0; d < pool.days.length; d++) {
      const day = pool.days[d]!;
      for (const k of pool.lists[d]!) {
        const item = items[k]!;
        if (item.counterpartyName) {
          const list = names.listId(k);
          let keys = keysOf[list];
          if (!keys) {
            keys = nameKeys(names.words(k), byName.wordIds);
            keysOf[list] = keys;
          }
          for (let j = 0; j < keys.length; j++) byName.lists.add(amount, keys[j]!, day, k);
        }
        const phone = item.counterpartyPhone;
        if (!phone) continue;
        let tail = tailOf.get(phone);
        if (tail === undefined) {
          tail = lastThree(nationalDigits(phone));
          tailOf.set(phone, tail);
        }
        if (tail >= 0) byPhone.add(amount, tail, day, k);
      }
    }
  }
  byName.lists.close();
  byPhone.close();
  return { byName, byPhone };
}

/** A name's `nameKey`s: its initial with each of its distinct words of 3+ letters, numbered in `wordIds`. */
function nameKeys(words: readonly string[], wordIds: Map<string, number>): Int32Array {
  const keys: number[] = [];
  for (let j = 0; j < words.length; j++) {
    const w = words[j]!;
    if (w.length < 3 || words.indexOf(w) !== j) continue;
    let id = wordIds.get(w);
    if (id === undefined) {
      id = wordIds.size;
      wordIds.set(w, id);
    }
    keys.push(nameKey(words[0]!, id));
  }
  return Int32Array.from(keys);
}

/**
 * The list of the entry's amount whose items' names begin with the letter the printed name begins with
 * and have the entry's rarest printed word among those some item has (−1: none). The right item has every
 * printed word that is whole and spelt right, so any one will do, and the rarest reads fewest; a word with
 * a typo or cut by the bank is in no item's name and is not chosen (a typo in the first letter loses the
 * lookup: the nearest by date are compared instead).
 */
function namedList(index: NameIndex, amount: number, printed: readonly string[]): number {
  if (printed.length === 0 || !index.lists.hasAmount(amount)) return -1;
  let list = -1;
  for (const w of printed) {
    const id = index.wordIds.get(w);
    const l = id === undefined ? -1 : index.lists.find(amount, nameKey(printed[0]!, id));
    if (l >= 0 && (list < 0 || index.lists.length(l) < index.lists.length(list))) list = l;
  }
  return list;
}

/**
 * Adds to `near` (with their date costs) the items of list `list` within the window of the
 * booking or value date, at most `atMost`: a name that points at more tells them apart no better than the
 * date, so those whose day costs least are kept (`dayCost`, the pairs' date cost: the rail's lag first),
 * ties by day then index, and the answer is true: the line is cut — never sure, more lay beyond (decision
 * 0180). Without it one word every counterpart shares ("CLINICA") made each line compare all of its
 * amount's items: quadratic. The list is in (day, index) order, so the window is found by binary search
 * and each day's items are a run. The first of a line's sources: `near` is empty.
 */
function nearestOf(
  lists: DayLists,
  list: number,
  booked: number,
  valued: number,
  windowDays: number,
  atMost: number,
  dayCost: (day: number) => number,
  near: Near,
): boolean {
  const { days, starts } = lists;
  const first = lowerBound(days, Math.min(booked, valued) - windowDays, starts[list]!, starts[list + 1]!);
  const end = lowerBound(days, Math.max(booked, valued) + windowDays + 1, first, starts[list + 1]!);
  if (end - first <= atMost) {
    inWindow(lists, list, booked, valued, windowDays, dayCost, null, 0, near);
    return false;
  }
  // The window's days, as they come (ascending; each day's run ends where the next day begins, found by
  // binary search: a window may hold thousands), then ordered by cost: a stable insertion sort, so a
  // cost's days stay in day order. Two numbers each: cost and where the day's run begins.
  let count = 0;
  let found = 0;
  for (let j = first; j < end; ) {
    const day = days[j]!;
    const next = lowerBound(days, day + 1, j + 1, end);
    if (Math.min(Math.abs(day - booked), Math.abs(day - valued)) <= windowDays) {
      if (2 * count + 2 > dayRuns.length) dayRuns = growTo(dayRuns, 4 * count + 4);
      const cost = dayCost(day);
      let k = count++;
      for (; k > 0 && dayRuns[2 * (k - 1)]! > cost; k--) {
        dayRuns[2 * k] = dayRuns[2 * k - 2]!;
        dayRuns[2 * k + 1] = dayRuns[2 * k - 1]!;
      }
      dayRuns[2 * k] = cost;
      dayRuns[2 * k + 1] = j;
      found += next - j;
    }
    j = next;
  }
  let left = atMost;
  for (let k = 0; k < count && left > 0; k++) {
    const cost = dayRuns[2 * k]!;
    const from = dayRuns[2 * k + 1]!;
    for (let j = from; j < end && days[j] === days[from] && left > 0; j++) {
      near.push(lists.items[j]!, cost);
      left--;
    }
  }
  return found > atMost;
}

/** `nearestOf`'s days, reused from line to line. */
let dayRuns: Int32Array = new Int32Array(64);

function growTo(from: Int32Array, size: number): Int32Array {
  const to = new Int32Array(size);
  to.set(from);
  return to;
}

/**
 * Adds to `near` the items of list `list` within the window of the booking or value date, and their date
 * costs (`dayCost`); with `seen`, only those it does not mark with `stamp`.
 */
function inWindow(
  lists: DayLists,
  list: number,
  booked: number,
  valued: number,
  windowDays: number,
  dayCost: (day: number) => number,
  seen: Int32Array | null,
  stamp: number,
  near: Near,
): void {
  const { days, items } = lists;
  const end = lists.starts[list + 1]!;
  const to = Math.max(booked, valued) + windowDays;
  let costDay = Number.NaN;
  let cost = 0;
  for (
    let j = lowerBound(days, Math.min(booked, valued) - windowDays, lists.starts[list]!, end);
    j < end;
    j++
  ) {
    const day = days[j]!;
    if (day > to) break;
    if (Math.min(Math.abs(day - booked), Math.abs(day - valued)) > windowDays) continue;
    // A day's items are a run: its cost worked out at the first.
    if (day !== costDay) {
      costDay = day;
      cost = dayCost(day);
    }
    const ik = items[j]!;
    if (seen !== null && seen[ik] === stamp) continue;
    near.push(ik, cost);
  }
}

/** Days between an item's day (NaN: undated, 0) and the entry's booking or value date, the nearer. */
function calendarDays(entry: MatchEntry, day: number): number {
  if (Number.isNaN(day)) return 0;
  const booked = Math.abs(dayNumber(entry.bookingDate) - day);
  return entry.valueDate ? Math.min(booked, Math.abs(dayNumber(entry.valueDate) - day)) : booked;
}

/**
 * A line's counterparts and their date costs, side by side, reused from line to line: two arrays cleared
 * for each line would give back their room and grow it again (decision 0183).
 */
class Near {
  items: Int32Array = new Int32Array(64);
  costs: Int32Array = new Int32Array(64);
  length = 0;

  push(item: number, cost: number): void {
    if (this.length === this.items.length) {
      this.items = growTo(this.items, 2 * this.length);
      this.costs = growTo(this.costs, 2 * this.length);
    }
    this.items[this.length] = item;
    this.costs[this.length++] = cost;
  }

  /** By item index (a few items: insertion sort, in place), each with its cost. */
  sortByItem(): void {
    const { items, costs } = this;
    for (let j = 1; j < this.length; j++) {
      const item = items[j]!;
      const cost = costs[j]!;
      let k = j - 1;
      for (; k >= 0 && items[k]! > item; k--) {
        items[k + 1] = items[k]!;
        costs[k + 1] = costs[k]!;
      }
      items[k + 1] = item;
      costs[k + 1] = cost;
    }
  }
}

function batchChecks(
  entries: MatchEntry[],
  items: ExpectedItem[],
  signed: number[],
  byBatch: Map<string, number[]>,
  matchedTo: Int32Array,
): BatchCheck[] {
  const groups = new Map<string, number[]>();
  for (let k = 0; k < entries.length; k++) {
    const e = entries[k]!;
    if (e.batchId && e.kind !== 'return') push(groups, e.batchId, k);
  }
  const groupOf = new Int32Array(entries.length).fill(-1);
  const out: BatchCheck[] = [];
  let g = 0;
  for (const [batchId, group] of [...groups].sort(([a], [b]) => (a < b ? -1 : 1))) {
    g++;
    for (const k of group) groupOf[k] = g;
    const batchItems = byBatch.get(batchId) ?? [];
    const statementCents = group.reduce((s, k) => s + entries[k]!.amountCents, 0);
    const expectedCents = batchItems.reduce((s, i) => s + signed[i]!, 0);
    out.push({
      batchId,
      entryIds: group.map((k) => entries[k]!.id),
      itemIds: batchItems.map((i) => items[i]!.id),
      statementCents,
      expectedCents,
      complete:
        batchItems.length > 0 &&
        statementCents === expectedCents &&
        batchItems.every((i) => matchedTo[i]! >= 0 && groupOf[matchedTo[i]!] === g),
    });
  }
  return out;
}

/**
 * A copy sorted by id (plain string order), refusing duplicate ids. Two equal ids are compared by the
 * sort (elements next to each other in the result always are), so it finds them without another pass.
 */
function sortedById<T extends { id: string }>(list: T[]): T[] {
  const out = [...list];
  let sorted = true;
  for (let k = 1; k < out.length && sorted; k++) sorted = out[k - 1]!.id < out[k]!.id;
  if (sorted) return out;
  let duplicate: string | undefined;
  out.sort((a, b) => {
    if (a.id < b.id) return -1;
    if (a.id > b.id) return 1;
    duplicate = a.id;
    return 0;
  });
  if (duplicate !== undefined) throw new RangeError(`duplicate id ${duplicate}`);
  return out;
}
