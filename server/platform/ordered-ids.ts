import { randomBytes } from 'node:crypto';

/** Ids per call at most: the counter's 26 bits (a 40 MB statement has well under a million lines). */
export const MAX_ORDERED_IDS = 2 ** 26;

/**
 * `count` new row ids, increasing in the order they are handed out (RFC 9562 version 7 UUIDs: the
 * milliseconds since 1970 in the first 48 bits, then a counter in the 26 bits around the version and
 * variant, then 48 random bits). A table's primary-key index then grows at its right edge as the rows
 * are inserted in that order, instead of every row landing on a random page of it (decision 0112).
 * Not secret: they tell when they were made. A long run is asked in slices with the same `now`, each
 * from the counter where the one before ended (`firstCounter`), so a caller can yield between them.
 */
export function orderedIds(count: number, now: number = Date.now(), firstCounter = 0): string[] {
  if (!Number.isInteger(firstCounter) || firstCounter < 0)
    throw new RangeError(`orderedIds: counter ${firstCounter} is not a whole number from 0`);
  if (!Number.isInteger(count) || count < 0 || firstCounter + count > MAX_ORDERED_IDS)
    throw new RangeError(`orderedIds: ${count} ids asked, at most ${MAX_ORDERED_IDS}`);
  const counters = new Array<number>(count);
  for (let k = 0; k < count; k++) counters[k] = firstCounter + k;
  return orderedIdsAt(counters, now);
}

/**
 * The ids of the given counters at the same `now`: ids in counter order whatever order they are asked
 * in, so rows can be written in another order than their ids' (a statement streamed in file order, its
 * ids by booking date: decision 0144). Each counter below MAX_ORDERED_IDS.
 */
export function orderedIdsAt(counters: ArrayLike<number>, now: number = Date.now()): string[] {
  const time = now.toString(16).padStart(12, '0');
  const prefix = `${time.slice(0, 8)}-${time.slice(8)}-7`;
  const random = randomBytes(counters.length * 6).toString('hex');
  const ids: string[] = new Array(counters.length);
  for (let k = 0; k < counters.length; k++) {
    const n = counters[k]!;
    if (!Number.isInteger(n) || n < 0 || n >= MAX_ORDERED_IDS)
      throw new RangeError(`orderedIds: counter ${n} is not a whole number below ${MAX_ORDERED_IDS}`);
    // The counter's top 12 bits after the version; variant 0b10, then its low 14 bits; then random.
    const high = (n >>> 14).toString(16).padStart(3, '0');
    const low = (0x8000 | (n & 0x3fff)).toString(16);
    ids[k] = `${prefix}${high}-${low}-${random.slice(k * 12, k * 12 + 12)}`;
  }
  return ids;
}
