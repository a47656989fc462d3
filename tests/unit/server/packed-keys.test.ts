import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../domain/sha256';
import { type StatementLineKeyFields, statementLineKeys } from '../../../domain/statements/line-key';
import { hexKeysOf } from '../../../server/statements/known-lines';
import { PackedKeys } from '../../../server/statements/packed-keys';

const word = fc.stringMatching(/^[A-Za-z0-9À-ÿ/.:'-]{1,8}$/);
const isoDate = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2049-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const entry: fc.Arbitrary<StatementLineKeyFields> = fc.record({
  bookingDate: isoDate,
  valueDate: fc.option(isoDate, { nil: null }),
  // Few amounts and words: identical entries (occurrences 1, 2, …) are common.
  amountCents: fc.integer({ min: -3, max: 3 }),
  bankReference: fc.option(word, { nil: null }),
  endToEndId: fc.option(word, { nil: null }),
  description: word,
});
const statement = fc.array(entry, { maxLength: 60 });

describe('PackedKeys: line keys held as digests', () => {
  it('gives back every key and every piece of a statement exactly as statementLineKeys answered them', () => {
    fc.assert(
      fc.property(statement, fc.nat(70), fc.nat(70), (entries, a, b) => {
        const keys = statementLineKeys('PT50000201231234567890154', entries);
        const packed = PackedKeys.packing([...keys]);
        expect(packed.count).toBe(keys.length);
        expect(packed.slice(0, packed.count)).toEqual(keys);
        expect(packed.slice(a, b)).toEqual(keys.slice(a, b));
        expect(keys.map((_, index) => packed.at(index))).toEqual(keys);
        // A piece as digests (what the worker hands over and PostgreSQL hexes) is the same keys.
        expect(hexKeysOf(packed.digestSlice(a, b))).toEqual(keys.slice(a, b));
        expect(new Uint8Array(PackedKeys.digesting(keys.slice(a, b)))).toEqual(packed.digestSlice(a, b));
      }),
    );
  });

  it('packs the keys of a statement as it makes them, occurrences numbered as statementLineKeys numbers them (decision 0150)', () => {
    fc.assert(
      fc.property(statement, fc.integer({ min: 1, max: 3 }), (entries, times) => {
        // Each entry up to three times, in turn reversed: occurrences 1, 2, … adjacent and far apart.
        const lines = Array.from({ length: times }, (_, n) =>
          n % 2 ? entries.toReversed() : entries,
        ).flat();
        const keys = statementLineKeys('PT50000201231234567890154', lines);
        const packed = PackedKeys.ofStatement('PT50000201231234567890154', lines, sha256Hex);
        expect(packed.count).toBe(keys.length);
        expect(packed.slice(0, packed.count)).toEqual(keys);
      }),
      { numRuns: 300 },
    );
  });

  it('recognises the same keys: a key is in a set of stored keys as a digest exactly when it is as a string', () => {
    fc.assert(
      // The upload repeats the stored statement's lines and adds some: both known and new lines occur.
      fc.property(statement, statement, (stored, added) => {
        const storedKeys = new Set(statementLineKeys('PT50000201231234567890154', stored));
        const keys = statementLineKeys('PT50000201231234567890154', [...stored, ...added]);
        const packed = PackedKeys.packing([...keys]);
        expect(packed.slice(0, packed.count).map((key) => storedKeys.has(key))).toEqual(
          keys.map((key) => storedKeys.has(key)),
        );
      }),
    );
  });

  it('lets the strings go as it packs them', () => {
    const keys = statementLineKeys('PT50000201231234567890154', [
      {
        bookingDate: '2026-05-01',
        valueDate: null,
        amountCents: -250,
        bankReference: null,
        endToEndId: null,
        description: 'FEE',
      },
    ]);
    PackedKeys.packing(keys);
    expect(keys).toEqual([]);
  });

  it('refuses a key that is not a lower-case SHA-256 hex digest rather than answer another', () => {
    expect(() => PackedKeys.packing(['A'.repeat(64)])).toThrow(RangeError);
    expect(() => PackedKeys.packing(['ab'])).toThrow(RangeError);
  });

  it('refuses an index outside the statement', () => {
    const packed = PackedKeys.packing(['0'.repeat(64)]);
    expect(() => packed.at(1)).toThrow(RangeError);
    expect(packed.at(0)).toBe('0'.repeat(64));
  });
});
