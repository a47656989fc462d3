import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_ORDERED_IDS, orderedIds, orderedIdsAt } from '../../../server/platform/ordered-ids';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('orderedIds (decision 0112)', () => {
  it('asked for counters in any order (a statement streamed in file order, decision 0144): ids in counter order', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: MAX_ORDERED_IDS - 1 }), { maxLength: 200 }),
        (counters) => {
          const ids = orderedIdsAt(counters, 1_796_000_000_000);
          const byCounter = counters
            .map((counter, k) => [counter, ids[k]!] as const)
            .sort(([a], [b]) => a - b);
          for (let n = 1; n < byCounter.length; n++)
            expect(byCounter[n]![1] > byCounter[n - 1]![1]).toBe(true);
          for (const id of ids) expect(id).toMatch(UUID_V7);
        },
      ),
      { numRuns: 100 },
    );
    expect(() => orderedIdsAt([MAX_ORDERED_IDS])).toThrow(RangeError);
    expect(() => orderedIdsAt([-1])).toThrow(RangeError);
  });

  it('hands out distinct version 7 UUIDs, increasing in order, that carry the time they were made', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3_000 }),
        fc.integer({ min: 0, max: 2 ** 48 - 1 }),
        (count, now) => {
          const ids = orderedIds(count, now);
          expect(ids).toHaveLength(count);
          for (const id of ids) {
            expect(id).toMatch(UUID_V7);
            expect(Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(now);
          }
          for (let n = 1; n < ids.length; n++) expect(ids[n]! > ids[n - 1]!).toBe(true);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('keeps increasing across the counter bits either side of the variant, and is random after them', () => {
    const ids = orderedIds(70_000, 1_796_000_000_000);
    for (const n of [16_383, 16_384, 65_535, 65_536]) expect(ids[n]! > ids[n - 1]!).toBe(true);
    expect(new Set(ids.map((id) => id.slice(24))).size).toBe(ids.length);
    // Two calls in the same millisecond share the counter, not the ids.
    expect(orderedIds(1, 5)[0]).not.toBe(orderedIds(1, 5)[0]);
  });

  it('asked in slices from where the last one ended, keeps increasing across the slices', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 40_000 }), { maxLength: 4 }), (sizes) => {
        const now = 1_796_000_000_000;
        let counter = 0;
        const ids = sizes.flatMap((size) => {
          const slice = orderedIds(size, now, counter);
          counter += size;
          return slice;
        });
        for (let n = 1; n < ids.length; n++) expect(ids[n]! > ids[n - 1]!).toBe(true);
      }),
      { numRuns: 20 },
    );
  });

  it('refuses a count it cannot keep in order', () => {
    expect(() => orderedIds(MAX_ORDERED_IDS + 1)).toThrow(RangeError);
    expect(() => orderedIds(1, 5, MAX_ORDERED_IDS)).toThrow(RangeError);
    expect(() => orderedIds(1, 5, -1)).toThrow(RangeError);
    expect(() => orderedIds(-1)).toThrow(RangeError);
    expect(() => orderedIds(1.5)).toThrow(RangeError);
  });
});
