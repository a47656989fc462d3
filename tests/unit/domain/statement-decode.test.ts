import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBytes } from '../../../domain/statements/decode';

/**
 * Decision 0150: UTF-8 whose characters are all below U+0100 is decoded by hand into a string of one
 * byte a character. Whatever the bytes, the text must be the one the strict UTF-8 decoder gives.
 */

// Characters of every size, biased to those the narrow path reads (U+0080–U+00FF) and just above them
// (U+0100–U+013F share their lead byte's shape), with a stray byte now and then (not UTF-8 any more).
// No NUL and an ASCII first byte: neither a byte order mark nor UTF-16's pattern of zeros, which choose
// other decoders.
const encoder = new TextEncoder();
const character = fc.oneof(
  fc.integer({ min: 0x01, max: 0x7f }),
  fc.integer({ min: 0x80, max: 0xff }),
  fc.integer({ min: 0x100, max: 0x13f }),
  fc.integer({ min: 0x140, max: 0x10ffff }).filter((c) => c < 0xd800 || c > 0xdfff),
);
const piece = fc.oneof(
  { weight: 9, arbitrary: character.map((c) => [...encoder.encode(String.fromCodePoint(c))]) },
  { weight: 1, arbitrary: fc.integer({ min: 0x80, max: 0xff }).map((b) => [b]) },
);
const upload = fc.array(piece, { maxLength: 40 }).map((pieces) => Uint8Array.from([0x61, ...pieces.flat()]));
const strictUtf8 = (bytes: Uint8Array) => new TextDecoder('utf-8', { fatal: true }).decode(bytes);

describe('a statement upload decoded as UTF-8', () => {
  it('reads valid UTF-8 as the strict decoder does, Latin-1 characters or not', () => {
    fc.assert(
      fc.property(upload, (bytes) => {
        let expected: string;
        try {
          expected = strictUtf8(bytes);
        } catch {
          return; // not UTF-8: the cut-character and windows-1252 rules apply, as before
        }
        expect(decodeBytes(bytes)).toEqual({ text: expected, encoding: 'utf-8' });
      }),
      { numRuns: 2_000 },
    );
  });

  it('reads every character below U+0100 back, across the pieces it is built in', () => {
    const latin1 = fc.string({
      unit: fc.integer({ min: 0x01, max: 0xff }).map((c) => String.fromCharCode(c)),
    });
    fc.assert(
      fc.property(latin1, fc.nat(20_000), (text, padding) => {
        const whole = `a${'é'.repeat(padding)}${text}`;
        expect(decodeBytes(new TextEncoder().encode(whole))).toEqual({ text: whole, encoding: 'utf-8' });
      }),
      { numRuns: 200 },
    );
  });
});
