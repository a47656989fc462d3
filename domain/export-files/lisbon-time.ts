// Wall-clock time in Europe/Lisbon for export cells, without one Intl call per cell.
//
// The zone's offset comes from Intl (so it follows the runtime's tz database, not rules written here)
// and is cached per UTC day when the day's first and last second agree (Lisbon changes offset at most
// once a day, months apart), else per UTC hour (it changes on whole UTC hours: 01:00 UTC since 1996).
// An hour whose two ends disagree (old local-mean-time changes) is not cached and is asked per value.

const HOUR = 3_600_000;
const DAY = 86_400_000;
const DAY_MS = 86_400_000;
const MAX_CACHED = 100_000; // entries (days or hours), a few MB at most; then start over.

let parts: Intl.DateTimeFormat | undefined;
const dayOffsets = new Map<number, number>(); // UTC day → offset, or NaN when the day has a change
const hourOffsets = new Map<number, number>();

function offsetAt(ms: number): number {
  parts ??= new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Lisbon',
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    era: 'short',
  });
  const f: Record<string, string> = {};
  for (const p of parts.formatToParts(ms)) f[p.type] = p.value;
  let year = Number(f.year);
  if (f.era === 'BC' || f.era === 'B') year = 1 - year;
  const local = Date.UTC(
    2000,
    Number(f.month) - 1,
    Number(f.day),
    Number(f.hour),
    Number(f.minute),
    Number(f.second),
  );
  // Date.UTC maps years 0–99 to 1900s, so the year is set apart.
  const d = new Date(local);
  d.setUTCFullYear(year);
  return d.getTime() - (ms - (((ms % 1000) + 1000) % 1000));
}

/** Milliseconds to add to a UTC instant to get Lisbon's wall clock as if it were UTC. */
export function lisbonOffsetMs(ms: number): number {
  const day = Math.floor(ms / DAY_MS);
  let byDay = dayOffsets.get(day);
  if (byDay === undefined) {
    const start = offsetAt(day * DAY_MS);
    byDay = start === offsetAt(day * DAY_MS + DAY_MS - 1000) ? start : Number.NaN;
    if (dayOffsets.size >= MAX_CACHED) dayOffsets.clear();
    dayOffsets.set(day, byDay);
  }
  if (!Number.isNaN(byDay)) return byDay;
  const hour = Math.floor(ms / HOUR);
  const cached = hourOffsets.get(hour);
  if (cached !== undefined) return cached;
  const start = offsetAt(hour * HOUR);
  if (start !== offsetAt(hour * HOUR + HOUR - 1000)) return offsetAt(ms);
  if (hourOffsets.size >= MAX_CACHED) hourOffsets.clear();
  hourOffsets.set(hour, start);
  return start;
}

/** Days since 1970-01-01 → [year, month, day] (proleptic Gregorian; H. Hinnant's civil_from_days). */
export function civilFromDays(days: number): [number, number, number] {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const four = (n: number) => (n >= 1000 ? `${n}` : `${n}`.padStart(4, '0'));

/** Lisbon wall clock of an instant, as milliseconds of a UTC-based timeline (for Excel serials). */
export const lisbonLocalMs = (ms: number): number => ms + lisbonOffsetMs(ms);

/** `YYYY-MM-DD` of days since 1970-01-01. */
export function isoDateOfDays(days: number): string {
  const [y, m, d] = civilFromDays(days);
  return `${four(y)}-${two(m)}-${two(d)}`;
}

/** `YYYY-MM-DD HH:MM:SS` of an instant in Europe/Lisbon (milliseconds dropped, not rounded). */
export function lisbonDateTime(ms: number): string {
  const local = lisbonLocalMs(ms);
  const days = Math.floor(local / DAY);
  const s = Math.floor((local - days * DAY) / 1000);
  return `${isoDateOfDays(days)} ${two(Math.floor(s / 3600))}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`;
}

/** Calendar date of an instant in Europe/Lisbon, as days since 1970-01-01. */
export const lisbonDays = (ms: number): number => Math.floor(lisbonLocalMs(ms) / DAY);
