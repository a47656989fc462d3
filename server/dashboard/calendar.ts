import { addDays } from '../../domain/business-days';

/** `count` consecutive days ending with `last` (`YYYY-MM-DD`), oldest first. */
export const daysEndingWith = (last: string, count: number): string[] =>
  Array.from({ length: count }, (_, i) => addDays(last, i - count + 1));

/** `count` consecutive months (`YYYY-MM`) ending with the month of `day`, oldest first. */
export function monthsEndingWith(day: string, count: number): string[] {
  const [year, month] = [Number(day.slice(0, 4)), Number(day.slice(5, 7))];
  return Array.from({ length: count }, (_, i) => {
    const date = new Date(Date.UTC(year, month - 1 - (count - 1 - i), 1));
    return date.toISOString().slice(0, 7);
  });
}

/** The Monday of `day`'s ISO week. */
export function mondayOf(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

/** `count` consecutive ISO weeks (their Mondays) ending with `day`'s week, oldest first. */
export const weeksEndingWith = (day: string, count: number): string[] =>
  Array.from({ length: count }, (_, i) => addDays(mondayOf(day), 7 * (i - count + 1)));

/** Values keyed by axis point laid out on the axis, zero where nothing was counted. */
export const onAxis = (axis: readonly string[], values: ReadonlyMap<string, number>): number[] =>
  axis.map((point) => values.get(point) ?? 0);
