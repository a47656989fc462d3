// Business dates are civil dates ('YYYY-MM-DD') in Europe/Lisbon; arithmetic runs on UTC midnights
// so the server's own time zone never leaks in.

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isIsoDate(s: string): boolean {
  const m = ISO_DATE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === s;
}

function toUtc(date: string): Date {
  if (!isIsoDate(date)) throw new RangeError(`not a YYYY-MM-DD date: ${date}`);
  return new Date(`${date}T00:00:00Z`);
}

export function addDays(date: string, days: number): string {
  const d = toUtc(date);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function daysBetween(a: string, b: string): number {
  return Math.round((toUtc(b).getTime() - toUtc(a).getTime()) / 86_400_000);
}

/** Gregorian Easter Sunday (anonymous algorithm). */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** TARGET2 closing days: weekends, 1 Jan, Good Friday, Easter Monday, 1 May, 25 and 26 Dec. */
export function isTarget2BusinessDay(date: string): boolean {
  const d = toUtc(date);
  const dow = d.getUTCDay();
  if (dow === 0 || dow === 6) return false;
  const md = date.slice(5);
  if (md === '01-01' || md === '05-01' || md === '12-25' || md === '12-26') return false;
  const easter = easterSunday(d.getUTCFullYear());
  return date !== addDays(easter, -2) && date !== addDays(easter, 1);
}

/** The date itself if it is a TARGET2 business day, else the next one. */
export function nextTarget2BusinessDay(date: string): string {
  let d = date;
  while (!isTarget2BusinessDay(d)) d = addDays(d, 1);
  return d;
}

function lisbonParts(now: Date): Record<string, string> {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Lisbon',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(now);
  return Object.fromEntries(parts.map((p) => [p.type, p.value]));
}

export function todayInLisbon(now: Date = new Date()): string {
  const p = lisbonParts(now);
  return `${p.year}-${p.month}-${p.day}`;
}

/** `2026-05-04T10:15:00+01:00`: Lisbon wall-clock time with its offset (for CreDtTm). */
export function lisbonDateTime(now: Date = new Date()): string {
  const p = lisbonParts(now);
  const wall = Date.UTC(
    Number(p.year),
    Number(p.month) - 1,
    Number(p.day),
    Number(p.hour),
    Number(p.minute),
    Number(p.second),
  );
  const offsetMin = Math.round((wall - Math.floor(now.getTime() / 1000) * 1000) / 60_000);
  const sign = offsetMin < 0 ? '-' : '+';
  const abs = Math.abs(offsetMin);
  const off = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}${off}`;
}
