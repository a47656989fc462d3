/**
 * A statement's line keys held as their 32-byte SHA-256 digests in one buffer, hexed again a piece at a
 * time (decision 0144): 600,000 keys are 19 MiB of bytes instead of 55 MiB of 64-character strings.
 * Every key is lower-case hex SHA-256 (line-key.ts), so hexing the digest gives back the same string.
 */

import { type HashHex, lineKeyOf, type StatementLineKeyFields } from '../../domain/statements/line-key';

export const DIGEST_BYTES = 32;
const HEX_KEY = /^[0-9a-f]{64}$/;

export class PackedKeys {
  private constructor(
    private readonly digests: Buffer,
    readonly count: number,
  ) {}

  /**
   * `statementLineKeys` of one statement, packed as each is made: no list of 600,000 key strings, and no
   * map from each base key to its count (~85 MiB at the read's peak, decision 0150). Every entry's
   * base key (occurrence 0) is written first; the entries sharing a base key are then found by sorting
   * the digests, and the second, third… of each, in file order, get the key of their occurrence — the
   * numbering `statementLineKeys` gives.
   */
  static ofStatement(
    accountIban: string,
    entries: readonly StatementLineKeyFields[],
    hash: HashHex,
  ): PackedKeys {
    const count = entries.length;
    const digests = Buffer.allocUnsafeSlow(count * DIGEST_BYTES);
    const write = (index: number, key: string) => {
      if (!HEX_KEY.test(key))
        throw new RangeError(`line key ${index} is not a lower-case SHA-256 hex digest`);
      digests.write(key, index * DIGEST_BYTES, DIGEST_BYTES, 'hex');
    };
    for (let index = 0; index < count; index++)
      write(index, lineKeyOf(accountIban, entries[index]!, 0, hash));
    // The first four bytes order nearly every pair; only equal ones compare the whole digest.
    const prefix = Uint32Array.from({ length: count }, (_, index) =>
      digests.readUInt32BE(index * DIGEST_BYTES),
    );
    /** Negative, zero or positive as digest `a` sorts before, with or after digest `b`. */
    const compare = (a: number, b: number) =>
      prefix[a]! - prefix[b]! ||
      digests.compare(
        digests,
        b * DIGEST_BYTES,
        (b + 1) * DIGEST_BYTES,
        a * DIGEST_BYTES,
        (a + 1) * DIGEST_BYTES,
      );
    // The sort is stable: entries with one base key stay in file order, the order occurrences count in.
    const order = Uint32Array.from({ length: count }, (_, index) => index).sort(compare);
    // Each entry's occurrence among those with its base key, found before any key is rewritten.
    const occurrences = new Uint32Array(count);
    for (let at = 1; at < count; at++)
      if (compare(order[at - 1]!, order[at]!) === 0)
        occurrences[order[at]!] = occurrences[order[at - 1]!]! + 1;
    for (let index = 0; index < count; index++)
      if (occurrences[index]! > 0)
        write(index, lineKeyOf(accountIban, entries[index]!, occurrences[index]!, hash));
    return new PackedKeys(digests, count);
  }

  /** Keys as their digests, one after the other: how a piece of keys is asked about (known-lines.ts). */
  static digesting(keys: readonly string[]): Uint8Array {
    return PackedKeys.packing([...keys]).digests;
  }

  /** Packs the keys, emptying `keys` as it goes so the strings and the digests are not both held. */
  static packing(keys: string[]): PackedKeys {
    const count = keys.length;
    const digests = Buffer.allocUnsafe(count * DIGEST_BYTES);
    for (let index = 0; index < count; index++) {
      const key = keys[index]!;
      // A key of another shape would come back different: refused loudly rather than changed.
      if (!HEX_KEY.test(key))
        throw new RangeError(`line key ${index} is not a lower-case SHA-256 hex digest`);
      digests.write(key, index * DIGEST_BYTES, DIGEST_BYTES, 'hex');
    }
    keys.length = 0;
    return new PackedKeys(digests, count);
  }

  /** The key at `index`, as `statementLineKeys` answered it. */
  at(index: number): string {
    if (index < 0 || index >= this.count) throw new RangeError(`line key ${index} of ${this.count}`);
    return this.digests.toString('hex', index * DIGEST_BYTES, (index + 1) * DIGEST_BYTES);
  }

  /**
   * The digests of keys `start` to `end` (exclusive, clamped like Array.slice), copied into a buffer of
   * their own (it may be handed to another thread): a piece of keys without a string per key.
   */
  digestSlice(start: number, end: number): Uint8Array {
    const from = Math.max(0, Math.min(start, this.count));
    const to = Math.max(from, Math.min(end, this.count));
    return new Uint8Array(this.digests.subarray(from * DIGEST_BYTES, to * DIGEST_BYTES));
  }

  /** Keys `start` to `end` (exclusive, clamped like Array.slice). */
  slice(start: number, end: number): string[] {
    const from = Math.max(0, Math.min(start, this.count));
    const to = Math.max(from, Math.min(end, this.count));
    const keys: string[] = [];
    for (let index = from; index < to; index++) keys.push(this.at(index));
    return keys;
  }
}
