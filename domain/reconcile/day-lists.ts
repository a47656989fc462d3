/**
 * Lists of counterparts, each under an amount and a key (a word of a name, a phone's last digits), each
 * in (day, index) order: the counterparts are added in that order, then laid flat by `close` — a counting
 * sort by list, which keeps the order added. One typed array for all the lists: a month's index holds a
 * quarter of a million lists of a few counterparts each, and three arrays per list cost more to make and
 * to collect than to read (decision 0182).
 */
export class DayLists {
  /** Each amount's lists, by key: the list's number. */
  private readonly numbers = new Map<number, Map<number, number>>();
  /**
   * The amount last added to or looked up, and its lists: counterparts are added an amount at a time, and a
   * line looks up its amount's lists by each of its words (decision 0183).
   */
  private lastAmount = Number.NaN;
  private lastByKey: Map<number, number> | undefined;
  private count = 0;
  /** As added: the list, the counterpart's index and day of each. */
  private added = new Int32Array(3 * 1024);
  private size = 0;
  /** Where each list begins in `items` and `days`, and one past the last one's end. */
  starts = new Int32Array(1);
  /** The counterparts of all lists, list after list, each by day then index. */
  items = new Int32Array(0);
  /** Each counterpart's day, beside it. */
  days = new Int32Array(0);

  /** Adds counterpart `item` of day `day` to the list of (`amount`, `key`): in (day, index) order per list. */
  add(amount: number, key: number, day: number, item: number): void {
    let byKey = this.byKey(amount);
    if (!byKey) {
      byKey = new Map();
      this.numbers.set(amount, byKey);
      this.lastByKey = byKey;
    }
    let list = byKey.get(key);
    if (list === undefined) {
      list = this.count++;
      byKey.set(key, list);
    }
    if (3 * this.size + 3 > this.added.length) {
      // Never from nothing: `close` lets go of what was added.
      const more = new Int32Array(Math.max(3 * 1024, 2 * this.added.length));
      more.set(this.added);
      this.added = more;
    }
    this.added[3 * this.size] = list;
    this.added[3 * this.size + 1] = item;
    this.added[3 * this.size + 2] = day;
    this.size++;
  }

  /** Done adding: the lists laid flat. */
  close(): void {
    const starts = new Int32Array(this.count + 1);
    for (let p = 0; p < this.size; p++) starts[this.added[3 * p]! + 1]!++;
    for (let l = 0; l < this.count; l++) starts[l + 1]! += starts[l]!;
    const fill = starts.slice(0, this.count);
    this.items = new Int32Array(this.size);
    this.days = new Int32Array(this.size);
    for (let p = 0; p < this.size; p++) {
      const at = fill[this.added[3 * p]!]!++;
      this.items[at] = this.added[3 * p + 1]!;
      this.days[at] = this.added[3 * p + 2]!;
    }
    this.starts = starts;
    this.added = new Int32Array(0);
  }

  /** The list of (`amount`, `key`), −1 when none. */
  find(amount: number, key: number): number {
    return this.byKey(amount)?.get(key) ?? -1;
  }

  private byKey(amount: number): Map<number, number> | undefined {
    if (amount !== this.lastAmount) {
      this.lastAmount = amount;
      this.lastByKey = this.numbers.get(amount);
    }
    return this.lastByKey;
  }

  /** Whether some list is under `amount`. */
  hasAmount(amount: number): boolean {
    return this.numbers.has(amount);
  }

  /** How many counterparts list `list` holds. */
  length(list: number): number {
    return this.starts[list + 1]! - this.starts[list]!;
  }
}

/** First position in `days[from, to)`, ascending, whose day is ≥ `day` (`to` when none). */
export function lowerBound(days: ArrayLike<number>, day: number, from = 0, to = days.length): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (days[mid]! < day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
