// One date format per kind, everywhere in the console (issue 14): a day is "28/10/2026", an instant
// "28/10/2026, 06:12", both on Lisbon's wall clock (DESIGN §5: the business runs on Lisbon time, so
// every operator reads the same day whatever their machine's zone).
const TIME_ZONE = 'Europe/Lisbon';
const DAY: Intl.DateTimeFormatOptions = {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  timeZone: TIME_ZONE,
};
const INSTANT: Intl.DateTimeFormatOptions = { ...DAY, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };

// Building an Intl formatter costs ~0.1 ms (much more on a cold page); a table formats dates on every
// row of every render, so each locale's formatter is built once.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(kind: 'day' | 'instant', locale: string): Intl.DateTimeFormat {
  const key = `${kind} ${locale}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(locale, kind === 'day' ? DAY : INSTANT);
    formatters.set(key, found);
  }
  return found;
}

/** The day of an instant in Lisbon; '—' for none. */
export const formatDate = (iso: string | null, locale: string): string =>
  iso ? formatter('day', locale).format(new Date(iso)) : '—';

/** An instant to the minute, in Lisbon; '—' for none. */
export const formatDateTime = (iso: string | null, locale: string): string =>
  iso ? formatter('instant', locale).format(new Date(iso)) : '—';
