// Days of a date-range filter: ISO `yyyy-mm-dd` in the URL and the API, typed and shown in the console's
// language (pt-PT and en-GB both write dd/mm/yyyy), never in the browser's own date-input locale.
// The presets count days on Lisbon's calendar (DESIGN §5: the business runs on Lisbon time), so two
// admins in different zones get the same "today".

export const RANGE_PRESETS = ['today', 'last7Days', 'thisMonth', 'lastMonth'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

export interface DayRange {
  from: string;
  to: string;
}

const TIME_ZONE = 'Europe/Lisbon';
let lisbonDays: Intl.DateTimeFormat | undefined;

/** The day it is in Lisbon at `now`, as `yyyy-mm-dd`. */
export function lisbonDay(now: Date): string {
  lisbonDays ??= new Intl.DateTimeFormat('en-GB', {
    timeZone: TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  const part: Record<string, string> = {};
  for (const p of lisbonDays.formatToParts(now)) part[p.type] = p.value;
  return `${part.year}-${part.month}-${part.day}`;
}

const isoOf = (utc: Date) => utc.toISOString().slice(0, 10);
const utcDay = (iso: string) => new Date(`${iso}T00:00:00Z`);

/** The days a preset covers, both ends included, counted from Lisbon's day at `now`. */
export function presetRange(preset: RangePreset, now: Date): DayRange {
  const today = lisbonDay(now);
  const day = utcDay(today);
  const year = day.getUTCFullYear();
  const month = day.getUTCMonth();
  switch (preset) {
    case 'today':
      return { from: today, to: today };
    case 'last7Days':
      return { from: isoOf(new Date(Date.UTC(year, month, day.getUTCDate() - 6))), to: today };
    case 'thisMonth':
      return { from: isoOf(new Date(Date.UTC(year, month, 1))), to: today };
    case 'lastMonth':
      // Day 0 of this month is the last day of the previous one.
      return {
        from: isoOf(new Date(Date.UTC(year, month - 1, 1))),
        to: isoOf(new Date(Date.UTC(year, month, 0))),
      };
  }
}

type DayField = 'day' | 'month' | 'year';
const fieldOrders = new Map<string, DayField[]>();

/** The order the locale writes a date's fields in (dd/mm/yyyy for both console languages). */
function fieldOrder(locale: string): DayField[] {
  let order = fieldOrders.get(locale);
  if (!order) {
    order = new Intl.DateTimeFormat(locale, { day: '2-digit', month: '2-digit', year: 'numeric' })
      .formatToParts(new Date(Date.UTC(2001, 1, 3)))
      .map((p) => p.type)
      .filter((type): type is DayField => type === 'day' || type === 'month' || type === 'year');
    fieldOrders.set(locale, order);
  }
  return order;
}

/** `yyyy-mm-dd` written as the locale writes a day, e.g. `01/11/2026`; '' for anything else. */
export function formatDay(iso: string, locale: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!match) return '';
  const fields: Record<DayField, string> = { year: match[1]!, month: match[2]!, day: match[3]! };
  return fieldOrder(locale)
    .map((f) => fields[f])
    .join('/');
}

/**
 * A day typed in the locale's order (`1/11/2026`, `01-11-2026` and `01.11.2026` too) as `yyyy-mm-dd`;
 * null when it is not a real calendar day.
 */
export function parseDay(text: string, locale: string): string | null {
  const numbers = text.trim().split(/[/.-]/);
  if (numbers.length !== 3 || !numbers.every((n) => /^\d{1,4}$/.test(n))) return null;
  const fields = Object.fromEntries(fieldOrder(locale).map((f, i) => [f, Number(numbers[i])])) as Record<
    DayField,
    number
  >;
  const { day, month, year } = fields;
  if (year < 1000 || year > 9999 || month < 1 || month > 12 || day < 1) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1) return null; // 31/02 rolls over: not a day
  return isoOf(date);
}
