import { itemSides, nameWords } from './names';

interface NamedItem {
  counterpartyName?: string | null;
  counterpartyIban?: string | null;
  counterpartyPhone?: string | null;
}

/**
 * The counterparts' name words as the matcher compares them, read once per name (customers pay several
 * times: one name, many items) and kept as one list per distinct list of words, with a small id: "Clinica
 * 1" and "Clinica 2" read alike, so a line's agreement with both is worked out once. Ids run from 0 and
 * are fewer than the items. Each item's `itemSides` is read once too, into a typed array: the items are
 * objects of several shapes, and reading their fields for every pair compared costs more than comparing.
 */
export class ItemNames {
  /** Each item's `itemSides`. */
  readonly sides: Uint8Array;
  private readonly listOf: Int32Array;
  private readonly lists: string[][] = [];
  private readonly idOfName = new Map<string, number>();
  private readonly idOfWords = new Map<string, number>();

  constructor(private readonly items: readonly NamedItem[]) {
    this.sides = new Uint8Array(items.length);
    for (let k = 0; k < items.length; k++) this.sides[k] = itemSides(items[k]!);
    this.listOf = new Int32Array(items.length).fill(-1);
  }

  /** Item `ik`'s list of name words: its id. */
  listId(ik: number): number {
    let id = this.listOf[ik]!;
    if (id >= 0) return id;
    const name = this.items[ik]!.counterpartyName ?? '';
    const known = this.idOfName.get(name);
    if (known === undefined) {
      const words = nameWords(name);
      const key = words.join(' ');
      id = this.idOfWords.get(key) ?? this.lists.push(words) - 1;
      this.idOfWords.set(key, id);
      this.idOfName.set(name, id);
    } else id = known;
    this.listOf[ik] = id;
    return id;
  }

  /** Item `ik`'s name words (`nameWords`). */
  words(ik: number): string[] {
    return this.lists[this.listId(ik)]!;
  }
}
