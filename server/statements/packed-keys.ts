/**
 * A statement's line keys held as their 32-byte SHA-256 digests in one buffer, hexed again a piece at a
 * time (decision 0144): 600,000 keys are 19 MiB of bytes instead of 55 MiB of 64-character strings.
 * Every key is lower-case hex SHA-256 (line-key.ts), so hexing the digest gives back the same string.
 */

export const DIGEST_BYTES = 32;
const HEX_KEY = /^[0-9a-f]{64}$/;

export class PackedKeys {
  private constructor(
    private readonly digests: Buffer,
    readonly count: number,
  ) {}

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
