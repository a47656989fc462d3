// A counterparty's name as a bank prints it, against the name we expect (decision 0142). Banks print
// names upper case without accents, after words of their own ("TRF CR SEPA+ 0000030 DE …", "MB WAY …",
// "TRF SEPA P/ …"), cut to the width of a field ("IMPOSTO DE SELO OUT 202"), and often with the given
// names as initials ("J SIMOES"). Shared by the bulk matcher and the match picker so both agree.
import { tokens } from './features';
import { phoneAgreement, printedPhone } from './phones';

/** Words banks put around a name, and the particles and titles that say nothing about who it is. */
const NOT_NAME = new Set([
  'TRF',
  'TRANSF',
  'TRANSFERENCIA',
  'CR',
  'CRED',
  'DB',
  'SEPA',
  'INTRAB',
  'MB',
  'WAY',
  'MBWAY',
  'DD',
  'COBR',
  'PAG',
  'PAGAMENTO',
  'SERV',
  'SERVICOS',
  'REF',
  'DEVOL',
  'DEVOLUCAO',
  'DE',
  'DA',
  'DO',
  'DAS',
  'DOS',
  'E',
  'DR',
  'DRA',
  'LDA',
  'SA',
]);

/** Accented letters of Portuguese (and their neighbours in Latin-1) without the accent. */
const PLAIN: Record<string, string> = {};
for (const [plain, accented] of [
  ['A', 'ÁÀÂÃÄÅáàâãäå'],
  ['C', 'Çç'],
  ['E', 'ÉÈÊËéèêë'],
  ['I', 'ÍÌÎÏíìîï'],
  ['N', 'Ññ'],
  ['O', 'ÓÒÔÕÖóòôõö'],
  ['U', 'ÚÙÛÜúùûü'],
] as const)
  for (const ch of accented) PLAIN[ch] = plain;

/** Upper case, accents dropped: "João Simões" → "JOAO SIMOES". */
export function bankCase(text: string): string {
  // Printable ASCII has no accents; Portuguese letters by the table; anything else decomposed.
  if (!/[^\t -~]/.test(text)) return text.toUpperCase();
  const plain = text.replace(/[À-ÿ]/g, (ch) => PLAIN[ch] ?? ch);
  return (
    /[^\t -~]/.test(plain) ? plain.normalize('NFD').replace(/[\u0300-\u036f]/g, '') : plain
  ).toUpperCase();
}

/**
 * The words of a name in a bank's text: bank case, "P/" and "P/O" ("para", "por ordem de") dropped,
 * anything with a digit (sequence numbers, phone numbers, references) and the bank's own words left out. Single letters stay:
 * they are initials.
 */
export function nameWords(text: string | null | undefined): string[] {
  if (!text) return [];
  const upper = bankCase(text);
  const words: string[] = [];
  // One pass over the whitespace-separated chunks: a chunk with a digit is dropped whole, the others
  // split into runs of letters. The bank's own words are dropped as they come.
  let chunkStart = 0;
  while (chunkStart < upper.length) {
    let end = chunkStart;
    let digit = false;
    while (end < upper.length && !isSpace(upper.charCodeAt(end))) {
      const c = upper.charCodeAt(end);
      if (c >= 48 && c <= 57) digit = true;
      end++;
    }
    const chunk = upper.slice(chunkStart, end);
    if (end > chunkStart && !digit && chunk !== 'P/' && chunk !== 'P/O') {
      let from = -1;
      for (let k = 0; k <= chunk.length; k++) {
        const c = k < chunk.length ? chunk.charCodeAt(k) : 0;
        const letter = c >= 65 && c <= 90;
        if (letter && from < 0) from = k;
        else if (!letter && from >= 0) {
          const w = chunk.slice(from, k);
          if (!NOT_NAME.has(w)) words.push(w);
          from = -1;
        }
      }
    }
    chunkStart = end + 1;
  }
  return words;
}

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13 || c === 160;

/** `a` and `b` differ by one letter, or by two neighbouring letters swapped (a typo), both ≥ 4 long. */
function oneTypoApart(a: string, b: string): boolean {
  if (a.length !== b.length || a.length < 4) return false;
  let first = -1;
  for (let k = 0; k < a.length; k++) {
    if (a[k] === b[k]) continue;
    if (first >= 0) {
      // A second difference: only a swap of the two neighbouring letters is still one typo.
      return k === first + 1 && a[first] === b[k] && a[k] === b[first] && a.slice(k + 1) === b.slice(k + 1);
    }
    first = k;
  }
  return true;
}

/**
 * How much one printed word tells when it is found in the expected name, by how it is found: roughly
 * how many times fewer people it leaves (a surname or a given name spelt out leaves fewer than an
 * initial). A name is taken as told once the words found add up to FULL_NAME ("JOAO SIMOES GONCALVES",
 * "M J SIMOES GONCALVES"); "J SIMOES" tells half of it.
 */
const WEIGHT = { word: 2, cut: 1.5, typo: 1.5, initial: 1 } as const;
const FULL_NAME = 6;
/**
 * A print that is not the whole name (a middle name left out, a word cut or an initial) never tells as
 * much as the whole name printed: "IRENE ARAUJO ASSUNCAO" is Irene Araújo Assunção's before it is
 * Irene Mariana Araújo Assunção's (decision 0146).
 */
const NOT_WHOLE = 0.99;
/**
 * A print that ends before the expected surname (cut, or a middle name last) tells a little less; so
 * does one that spells every word out yet leaves an expected word out (decision 0146): a bank that
 * prints given names whole prints the name up to its field's width, so "MARIANA HUGO FERREIRA" is as
 * much Mariana Hugo Ferreira Azevedo's (cut) as Mariana Hugo Valente Ferreira's. A print with initials
 * ("J SIMOES", "M J SIMOES") drops middle names by its style: no less for that.
 */
const ENDS_EARLY = 0.9;

/** How `printed` (the printed word at `at` of `count`) is found in `expected`, by weight; 0: not found. */
function wordWeight(p: string, w: string, at: number, count: number): number {
  if (p === w) return WEIGHT.word;
  if (p.length === 1) return w[0] === p ? WEIGHT.initial : 0;
  // Only the last word of a text can have been cut by the bank's field width.
  if (at === count - 1 && w.length > p.length && w.startsWith(p)) return WEIGHT.cut;
  return oneTypoApart(p, w) ? WEIGHT.typo : 0;
}

/**
 * How well the name printed by the bank (`printed`, from `nameWords`) agrees with the expected one
 * (`expected`, from `nameWords` too), 0–1. Banks keep a name's order and cut it only at the end, so the
 * first printed word must be the first expected word (or its initial), and each next printed word is
 * looked for among the expected words after the one the previous was found at (banks drop middle
 * names): the same word; for the last printed word, a longer word it begins (the bank cut it); a word
 * one typo away; for a single letter, a word it is the initial of. A printed word not found means
 * another person (another surname, another initial), and initials alone say too little: both 0.
 * Otherwise 1 when every expected word is printed whole, else what the words found tell (WEIGHT), as a
 * share of a full name.
 */
export function nameAgreement(printed: readonly string[], expected: readonly string[]): number {
  if (printed.length === 0 || expected.length === 0) return 0;
  let at = 0;
  let sum = 0;
  let whole = false;
  let initials = false;
  let skipped = false;
  let cutLast = false;
  for (let j = 0; j < printed.length; j++) {
    const p = printed[j]!;
    let weight = 0;
    // The first printed word is the first name (or its initial): banks cut names at the end, never the start.
    const last = j === 0 ? 1 : expected.length;
    const from = at;
    // The last printed word that is the expected surname is the surname, not an earlier word spelt the same
    // ("F PEREIRA" and Fátima Conceição Pereira Pereira: decision 0174).
    if (j > 0 && j === printed.length - 1 && p === expected[expected.length - 1] && at < expected.length) {
      at = expected.length;
      weight = WEIGHT.word;
    }
    while (at < last && weight === 0) weight = wordWeight(p, expected[at++]!, j, printed.length);
    if (weight === 0) return 0;
    if (at - from > 1) skipped = true;
    // Cut by the field's width: the last word the beginning of a longer one (a typo weighs as much, and is no cut).
    const found = expected[at - 1]!;
    if (j === printed.length - 1 && found.length > p.length && found.startsWith(p)) cutLast = true;
    sum += weight;
    if (p.length > 1) whole = true;
    else initials = true;
  }
  if (!whole) return 0;
  // Every expected word printed whole: the name itself, however short.
  if (sum === WEIGHT.word * expected.length) return 1;
  // A print whose last word the field's width cut says nothing of the words after the cut: Pedro Conceição
  // Teixeira Fonseca prints "PEDRO CONCEICAO TEIXEIR" as Pedro Conceição Teixeira does (decision 0174).
  const early = !cutLast && (at !== expected.length || (skipped && !initials));
  const told = Math.min(NOT_WHOLE, sum / FULL_NAME) * (early ? ENDS_EARLY : 1);
  return Math.round(100 * told) / 100;
}

/**
 * The narrowest field banks cut a printed name to (names are printed "truncated to 18–35 characters",
 * issue 32; decision 0174): a shorter print is the whole name, or initials.
 */
const NARROWEST_NAME_FIELD = 18;

/**
 * Whether a field could have ended at a space after these printed words (decision 0178): the print, its
 * words spelt out and one space apart, is at least one character short of the narrowest field, so a
 * field of that width or one more cut a longer name right before its next word. "MARGARIDA QUINTAS" (17
 * characters) is then Margarida Quintas's whole name and, as much, Margarida Quintas Castro's cut; a name
 * printed with initials is never cut (banks shorten it by its style).
 */
export function mayBeCutAtSpace(words: readonly string[]): boolean {
  if (words.length < 2 || words.some((w) => w.length === 1)) return false;
  let length = words.length - 1;
  for (const w of words) length += w.length;
  return length >= NARROWEST_NAME_FIELD - 1;
}

/** The same words in the same order. */
export function sameWords(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((w, k) => w === b[k]);
}

/** `words` are `name`'s first words, and `name` has more. */
export function beginsWith(name: readonly string[], words: readonly string[]): boolean {
  return name.length > words.length && words.every((w, k) => w === name[k]);
}

/** What a bank line prints of its counterparty: the name's words, and whether it prints any words at all. */
export interface PrintedName {
  words: string[];
  /** Some word of 3+ letters or digits (a phone number, a reference) even when no name is among them. */
  anyText: boolean;
  /** A line printing no name but an MB WAY payer's phone: the phone as printed ("964XXX072"), else null. */
  phone: string | null;
}

/** The name words a bank line prints: its name field when the bank fills one, else its description. */
export function printedName(entry: { counterpartyName: string | null; description: string }): PrintedName {
  const words = nameWords(entry.counterpartyName ?? remitterOf(entry.description));
  const phone = words.some((w) => w.length > 1) ? null : printedPhone(entry.description);
  return { words, anyText: words.length > 0 || tokens(entry.description).length > 0, phone };
}

/**
 * A credit received prints what the payer typed between the bank's words and "DE", then the payer's
 * name: "TRF CRED SEPA+ ORDENADO DE ASSOCIACAO DA…", "TRF CR INTRAB 657 DE VITOR MANUEL…" (decision
 * 0151). What the payer typed is no part of the name, so the name is read after the first "DE" that
 * follows "SEPA+" or "INTRAB"; a name's own "DE" comes after it ("… DE MARIA DE FATIMA"). Other texts
 * are read whole.
 */
const CREDIT_FROM = /(?:SEPA\+|INTRAB)(?:\s+\S+)*?\s+DE\s+(\S.*)$/;

function remitterOf(description: string): string {
  if (!/\bDE\b/i.test(description)) return description;
  return CREDIT_FROM.exec(bankCase(description))?.[1] ?? description;
}

/**
 * How well a line's counterparty agrees with an item's, as suggestions weigh it: 0 = contradicts (other
 * IBAN; a name printed that is not the expected one; an MB WAY phone whose visible digits are not the
 * item's phone's; a line with words but no name among them, such as a phone number, against an item with
 * a name and no phone), 0.5 = nothing to compare, up to 1 = same IBAN, the expected name printed in full
 * or the phone's six visible digits the item's (decision 0160). `printed` and `expected` are `printedName(entry)` and the item's
 * `nameWords`, passed in so callers compute them once.
 */
export function counterpartyAgreement(
  entry: { counterpartyIban: string | null },
  item: { counterpartyIban?: string | null; counterpartyPhone?: string | null },
  printed: PrintedName,
  expected: readonly string[],
): number {
  if (item.counterpartyIban && entry.counterpartyIban)
    return item.counterpartyIban === entry.counterpartyIban ? 1 : 0;
  if (printed.phone && item.counterpartyPhone) {
    const agreement = phoneAgreement(printed.phone, item.counterpartyPhone);
    return agreement === 0 ? 0 : 0.5 + 0.5 * agreement;
  }
  if (expected.length === 0) return 0.5;
  if (printed.words.length === 0) return printed.anyText ? 0 : 0.5;
  const agreement = nameAgreement(printed.words, expected);
  return agreement === 0 ? 0 : 0.5 + 0.5 * agreement;
}

/**
 * What `counterpartyAgreement` reads of a line or an item beside the name words, as bits: 1 an IBAN
 * (compared when both sides have one), 2 a phone (the line's printed, the item's held). A line and an
 * item whose bits share none agree by name words only: equal name words agree equally, and a caller
 * comparing one line with many items may reuse the answer.
 */
export const IBAN_SIDE = 1;
export const PHONE_SIDE = 2;

export function itemSides(item: {
  counterpartyIban?: string | null;
  counterpartyPhone?: string | null;
}): number {
  return (item.counterpartyIban ? IBAN_SIDE : 0) | (item.counterpartyPhone ? PHONE_SIDE : 0);
}

export function lineSides(entry: { counterpartyIban: string | null }, printed: PrintedName): number {
  return (entry.counterpartyIban ? IBAN_SIDE : 0) | (printed.phone ? PHONE_SIDE : 0);
}
