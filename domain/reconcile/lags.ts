// How many days after its counterpart's day a bank line is booked, by rail (decision 0146). A SEPA credit
// transfer reaches the account the business day after the payer sent it (an order of a Saturday is sent
// on Monday and booked on Tuesday); MB WAY, card refunds, our own SEPA debits and direct debits are
// booked the day they are made. Counting business days, not calendar days, is what tells a customer's
// invoice of Friday (booked Monday) from their invoice of Monday (booked Tuesday).
import { easterSunday } from '../business-days';
import type { StatementEntry } from '../statements/types';

/** Portugal's national holidays of fixed date (Lei 8/2016), as month × 100 + day. */
const PT_FIXED_HOLIDAYS = new Set([101, 425, 501, 610, 815, 1005, 1101, 1201, 1208, 1225]);
/** TARGET2's holidays of fixed date: 1 Jan, 1 May, 25 and 26 Dec. */
const TARGET2_FIXED_HOLIDAYS = new Set([101, 501, 1225, 1226]);

const DAY_MS = 86_400_000;
const easterDays = new Map<number, number>();

/** Easter Sunday of `year`, as days since 1970. */
function easterDay(year: number): number {
  let day = easterDays.get(year);
  if (day === undefined) {
    const date = easterSunday(year); // "YYYY-MM-DD"
    const at = new Date(0);
    at.setUTCFullYear(year, Number(date.slice(-5, -3)) - 1, Number(date.slice(-2)));
    day = Math.floor(at.getTime() / DAY_MS);
    easterDays.set(year, day);
  }
  return day;
}

/**
 * A Portuguese bank books on day `day` (days since 1970): TARGET2 is open (no weekend, 1 Jan, Good
 * Friday, Easter Monday, 1 May, 25–26 Dec) and it is no national holiday (the fixed ones, Corpus
 * Christi: Easter + 60).
 */
export function isPortugueseBankDay(day: number): boolean {
  const at = new Date(day * DAY_MS);
  const weekday = at.getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  const monthDay = (at.getUTCMonth() + 1) * 100 + at.getUTCDate();
  if (TARGET2_FIXED_HOLIDAYS.has(monthDay) || PT_FIXED_HOLIDAYS.has(monthDay)) return false;
  const easter = easterDay(at.getUTCFullYear());
  return day !== easter - 2 && day !== easter + 1 && day !== easter + 60;
}

/** Longer spans are not counted (a statement covers weeks): their lags are calendar days. */
export const MAX_SPAN_DAYS = 3660;

/**
 * The days banks book on over a span of days (days since 1970), for counting business days between a
 * counterpart's day and a line's booking in two array reads.
 */
export class BookingDays {
  private readonly first: number;
  /** Days banks book on, from `first` up to each day (inclusive). */
  private readonly upTo: Int32Array;
  private readonly open: Uint8Array;

  constructor(first: number, last: number) {
    this.first = first;
    const n = last - first + 1;
    const size = Number.isFinite(n) && n > 0 && n <= MAX_SPAN_DAYS ? n : 0;
    this.upTo = new Int32Array(size);
    this.open = new Uint8Array(size);
    let count = 0;
    for (let k = 0; k < size; k++) {
      const open = isPortugueseBankDay(first + k);
      if (open) count++;
      this.open[k] = open ? 1 : 0;
      this.upTo[k] = count;
    }
  }

  /**
   * Business days from `from` (moved to the next day banks book on when it is not one) to `to`:
   * Friday → Monday 1, Saturday → Tuesday 1, the same day 0. `to` before `from`, or a day outside the
   * span: the calendar days.
   */
  lag(from: number, to: number): number {
    const a = from - this.first;
    const b = to - this.first;
    if (to < from || a < 0 || b >= this.upTo.length) return to - from;
    return Math.max(0, this.upTo[b]! - this.upTo[a]! - (this.open[a] ? 0 : 1));
  }
}

/**
 * The business days a line is expected to be booked after its counterpart's day: 1 for a SEPA credit
 * transfer received (the bank's text says SEPA, money in), else 0.
 */
export function expectedLag(entry: Pick<StatementEntry, 'amountCents' | 'description'>): number {
  return entry.amountCents > 0 && /\bSEPA/i.test(entry.description) ? 1 : 0;
}

/**
 * How many business days a rail's bookings stray from its `expectedLag` (decision 0173): none for a SEPA credit
 * received (the schedule is the scheme's: the next business day), one for the rest (an MB WAY transfer of
 * the evening is booked the next day).
 */
export function lagSpread(expected: number): number {
  return expected === 1 ? 0 : 1;
}

/**
 * A pair's date cost for the assignment: how far its business lag is from the rail's (0…windowDays), and
 * beyond every such pair a line booked ahead of its counterpart (windowDays + the days ahead): money is
 * booked on or after the day of what it pays.
 */
export function lagCost(
  calendarLag: number,
  businessDaysLag: number,
  expected: number,
  windowDays: number,
): number {
  if (calendarLag < 0) return windowDays - calendarLag;
  return Math.min(windowDays, Math.abs(businessDaysLag - expected));
}
