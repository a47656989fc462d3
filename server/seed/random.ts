/**
 * mulberry32: tiny, fast and good enough for demo data. Each part of the seed draws from its own
 * stream (seed + stream name), so adding cases never changes the users' ids.
 */
export class Rng {
  private state: number;

  constructor(seed: number, stream: string) {
    let h = seed >>> 0;
    for (let i = 0; i < stream.length; i++) h = Math.imul(h ^ stream.charCodeAt(i), 0x9e3779b1) >>> 0;
    this.state = h;
  }

  /** Uniform in [0, 2^32). */
  uint32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Distinct picks, order kept from the source. */
  sample<T>(items: readonly T[], count: number): T[] {
    const chosen = new Set<number>();
    while (chosen.size < Math.min(count, items.length)) chosen.add(Math.floor(this.next() * items.length));
    return [...chosen].sort((a, b) => a - b).map((i) => items[i]!);
  }

  digits(count: number): string {
    let out = '';
    for (let i = 0; i < count; i++) out += String(this.int(0, 9));
    return out;
  }

  /** A version-4-shaped UUID from this stream: reproducible, unlike crypto.randomUUID(). */
  uuid(): string {
    const hex = (n: number) => n.toString(16).padStart(8, '0');
    const a = hex(this.uint32());
    const b = hex(this.uint32());
    const c = hex(this.uint32());
    const d = hex(this.uint32());
    const variant = ((Number.parseInt(c[0]!, 16) & 0x3) | 0x8).toString(16);
    return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-${variant}${c.slice(1, 4)}-${c.slice(4)}${d}`;
  }
}
