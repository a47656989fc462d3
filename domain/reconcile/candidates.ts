// The counterparts one bank line could be matched to, ranked with the reasons for their score, for the
// match picker; and the sets of counterparts whose amounts add up to the line (a payout split over
// several items, a batch booked as one debit). Pure: the server runs it over the open counterparts.
import type { StatementEntry } from '../statements/types';
import { dayNumber, referenceWords, signedExpected, suggestionScore } from './features';
import { BookingDays, expectedLag, lagCost } from './lags';
import { withLearnedRule } from './learned';
import { type ExpectedItem, SURE_SUGGESTION } from './match';
import { counterpartyAgreement, nameWords, type PrintedName, printedName } from './names';

export interface CandidateReasons {
  /** The item's amount is the line's, in the same direction (a return: the amount it gives back). */
  amountExact: boolean;
  /** Days between the item's date and the line's booking or value date (nearer one); 0 when undated. */
  dateDays: number;
  /** The line names the item: its EndToEndId, its SEPA file (MsgId/PmtInfId), or its payout/invoice id. */
  reference: boolean;
  /** 1 = same IBAN or the expected name printed in full (decision 0142); 0 = other IBAN, another name, or nothing to compare. */
  nameSimilarity: number;
  /** The line's counterparty text was matched to the item's party before (a learned rule, decision 0146). */
  learnedRule: boolean;
  /** The MB WAY phone the line prints agrees, in every digit the bank shows, with the item's customer's (decision 0160). */
  phone: boolean;
  /**
   * The line is booked when its rail books a payment of the item's day (`expectedLag`: a SEPA credit the business
   * day after, anything else the same day), which the score weighs instead of the calendar days (decision 0175).
   */
  railDay: boolean;
}

export interface ScoredCandidate {
  itemId: string;
  /**
   * 0–1, as the matcher scores: 1 reference and amount agree; 0.9 reference only; 0.5–0.94 exact amount
   * (the matcher's 0.95, SURE_SUGGESTION, needs every other line too: one line's candidates cannot say it).
   */
  score: number;
  reasons: CandidateReasons;
  /** Line amount minus the item's, in the line's direction (0 when they agree). */
  differenceCents: number;
}

export interface CandidateOptions {
  /** Items without a reference are candidates only within this many days of the line (default 5). */
  windowDays?: number;
  /** At most this many, best first (default 20). */
  limit?: number;
  /** The party the line's counterparty text was matched to before (`LearnedRules`), if any. */
  learnedPartyId?: string | null;
  /** That rule is the payer's IBAN's (decision 0160): it outweighs the name, as in the matcher. */
  learnedByIban?: boolean;
}

/** What of a bank line the scoring compares. */
export type CandidateEntry = Pick<
  StatementEntry,
  | 'bookingDate'
  | 'valueDate'
  | 'amountCents'
  | 'description'
  | 'counterpartyName'
  | 'counterpartyIban'
  | 'bankReference'
  | 'endToEndId'
  | 'batchId'
  | 'kind'
>;

/**
 * A dated item's date cost as the matcher weighs it (`lagCost`: business days off the rail's lag, a line booked
 * ahead of its item beyond every lag), from the booking or the value date, the lower; over a calendar of the
 * days around the line (further days count in calendar days, as `BookingDays` does).
 */
function railCosts(entry: CandidateEntry, windowDays: number): (date: string) => number {
  const booked = dayNumber(entry.bookingDate);
  const valued = entry.valueDate ? dayNumber(entry.valueDate) : booked;
  const expected = expectedLag(entry);
  const reach = Math.min(windowDays, RAIL_CALENDAR_DAYS);
  const calendar = new BookingDays(
    Math.min(booked, valued) - reach - 1,
    Math.max(booked, valued) + reach + 1,
  );
  const cost = (anchor: number, day: number) =>
    lagCost(anchor - day, calendar.lag(day, anchor), expected, windowDays);
  return (date) => {
    const day = dayNumber(date);
    return valued === booked ? cost(booked, day) : Math.min(cost(booked, day), cost(valued, day));
  };
}

/** Days either side of a line its calendar of bank days covers: a month's statement, and more. */
const RAIL_CALENDAR_DAYS = 62;

/** Nearest distance in days from the item's date to the entry's booking or value date. */
function daysApart(entry: CandidateEntry, date: string | null | undefined): number {
  if (!date) return 0;
  const day = dayNumber(date);
  const booked = Math.abs(day - dayNumber(entry.bookingDate));
  const valued = entry.valueDate ? Math.abs(day - dayNumber(entry.valueDate)) : booked;
  const days = Math.min(booked, valued);
  return Number.isNaN(days) ? Number.POSITIVE_INFINITY : days;
}

function namesAgree(
  entry: CandidateEntry,
  item: ExpectedItem,
  printed: PrintedName,
): { party: number; similarity: number; phone: boolean } {
  const expected = nameWords(item.counterpartyName);
  const party = counterpartyAgreement(entry, item, printed, expected);
  const byIban = !!(item.counterpartyIban && entry.counterpartyIban);
  const byPhone = !byIban && !!(printed.phone && item.counterpartyPhone);
  const compared = byIban || byPhone || (printed.words.length > 0 && expected.length > 0);
  return {
    party,
    similarity: compared ? Math.max(0, 2 * party - 1) : 0,
    phone: byPhone && party > 0,
  };
}

/**
 * The items that could explain `entry`, best first: those it names by reference (whatever their
 * date), and those in the same direction within the date window (whatever their amount, so the parts
 * of a split show too). A return is compared with the transfers it gives back (the other direction).
 * Score: reference → 1 (0.9 if the amount differs); exact amount → the matcher's suggestion score
 * (counterparty and date); otherwise ≤ 0.4 from counterparty and date. References first (as the
 * matcher takes them first), then by score; ties: nearer date, smaller difference, item id.
 */
export function candidatesFor(
  entry: CandidateEntry,
  items: readonly ExpectedItem[],
  options: CandidateOptions = {},
): ScoredCandidate[] {
  const windowDays = options.windowDays ?? 5;
  const limit = options.limit ?? 20;
  const direction = Math.sign(entry.amountCents) * (entry.kind === 'return' ? -1 : 1);
  const wanted = entry.kind === 'return' ? -entry.amountCents : entry.amountCents;
  const words = new Set(referenceWords(entry));
  const printed = printedName(entry);
  const railCost = railCosts(entry, windowDays);
  const out: ScoredCandidate[] = [];
  for (const item of items) {
    const amount = signedExpected(item);
    if (Math.sign(amount) !== direction) continue;
    const reference =
      (entry.endToEndId != null && item.endToEndId === entry.endToEndId) ||
      (entry.batchId != null && (item.batchIds ?? []).includes(entry.batchId)) ||
      (item.reference != null && words.has(item.reference.toUpperCase()));
    const dateDays = daysApart(entry, item.date);
    if (!reference && !(dateDays <= windowDays)) continue;
    const amountExact = amount === wanted;
    const names = namesAgree(entry, item, printed);
    const ofLearnedParty = options.learnedPartyId != null && item.partyId === options.learnedPartyId;
    const party = options.learnedByIban && ofLearnedParty ? 1 : withLearnedRule(names.party, ofLearnedParty);
    const learnedRule = party !== names.party;
    const similarity = names.similarity;
    const near = Math.max(0, windowDays - dateDays) / (windowDays + 1);
    // The date as the matcher weighs it: business days off the rail's lag (a SEPA credit's invoice of the
    // business day before first, not one of the same day), a line booked ahead of its item last.
    const dateCost = item.date ? railCost(item.date) : 0;
    const score = reference
      ? amountExact
        ? 1
        : 0.9
      : amountExact
        ? Math.min(suggestionScore(party, Math.min(dateCost, windowDays), windowDays), SURE_SUGGESTION - 0.01)
        : Math.round((0.2 * party + 0.2 * near) * 100) / 100;
    out.push({
      itemId: item.id,
      score,
      reasons: {
        amountExact,
        dateDays,
        reference,
        nameSimilarity: Math.round(similarity * 100) / 100,
        learnedRule,
        phone: names.phone,
        railDay: item.date != null && dateCost === 0,
      },
      differenceCents: entry.amountCents - (entry.kind === 'return' ? -amount : amount),
    });
  }
  out.sort(
    (a, b) =>
      Number(b.reasons.reference) - Number(a.reasons.reference) ||
      b.score - a.score ||
      a.reasons.dateDays - b.reasons.dateDays ||
      Math.abs(a.differenceCents) - Math.abs(b.differenceCents) ||
      (a.itemId < b.itemId ? -1 : a.itemId > b.itemId ? 1 : 0),
  );
  return out.slice(0, limit);
}

export interface Part {
  id: string;
  /** Signed, in the direction of the total it is a part of. */
  amountCents: number;
  score: number;
}

export interface ExactSum {
  ids: string[];
  /** Mean score of the parts. */
  score: number;
}

/**
 * Sets of 2 to `maxParts` (≤ 3) parts whose amounts add up exactly to `targetCents`, best mean score
 * first (ties: fewer parts, then ids), at most `limit` of them. Pairs are found through a map of
 * amounts, triples by fixing one part: O(n) and O(n²) in the number of parts, so pass the nearest
 * few dozen candidates, not every open item. Works both ways: the items of one bank line, or the bank
 * lines of one item (a payout split across two credits).
 */
export function exactSums(targetCents: number, parts: readonly Part[], maxParts = 3, limit = 5): ExactSum[] {
  const sorted = [...parts].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const found: ExactSum[] = [];
  const seen = new Set<string>();
  const add = (chosen: Part[]) => {
    const ids = chosen.map((p) => p.id).sort();
    const key = ids.join('\u001f');
    if (seen.has(key) || new Set(ids).size !== ids.length) return;
    seen.add(key);
    const score = chosen.reduce((s, p) => s + p.score, 0) / chosen.length;
    found.push({ ids, score: Math.round(score * 100) / 100 });
  };
  /** Pairs among `sorted[from…]` summing to `total`, each with the parts fixed before. */
  const pairs = (total: number, from: number, fixed: Part[]) => {
    const byAmount = new Map<number, Part[]>();
    for (let k = from; k < sorted.length; k++) {
      const p = sorted[k]!;
      for (const q of byAmount.get(total - p.amountCents) ?? []) add([...fixed, q, p]);
      const list = byAmount.get(p.amountCents);
      if (list) list.push(p);
      else byAmount.set(p.amountCents, [p]);
    }
  };
  if (maxParts >= 2) pairs(targetCents, 0, []);
  if (maxParts >= 3)
    for (let k = 0; k < sorted.length; k++) pairs(targetCents - sorted[k]!.amountCents, k + 1, [sorted[k]!]);
  found.sort(
    (a, b) =>
      b.score - a.score ||
      a.ids.length - b.ids.length ||
      (a.ids.join('\u001f') < b.ids.join('\u001f') ? -1 : 1),
  );
  return found.slice(0, limit);
}

/**
 * Sets of 2–3 counterparts in the line's direction, within the date window or named by the line,
 * whose amounts add up exactly to the line (a provider payout received as two credits is the other
 * way round: call `exactSums` with the lines as parts). Looks among the `pool` best candidates.
 */
export function splitsFor(
  entry: CandidateEntry,
  items: readonly ExpectedItem[],
  options: CandidateOptions & { pool?: number; maxParts?: number } = {},
): ExactSum[] {
  const pool = candidatesFor(entry, items, { windowDays: options.windowDays, limit: options.pool ?? 40 });
  const byId = new Map(items.map((i) => [i.id, i]));
  const sign = entry.kind === 'return' ? -1 : 1;
  const parts = pool
    .filter((c) => !c.reasons.amountExact)
    .map((c) => ({ id: c.itemId, amountCents: sign * signedExpected(byId.get(c.itemId)!), score: c.score }));
  return exactSums(entry.amountCents, parts, options.maxParts ?? 3, options.limit ?? 5);
}
