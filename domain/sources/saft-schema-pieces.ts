/**
 * A SAF-T (PT) file cut into documents that the official XSD judges, together, as it judges the whole
 * file (decisions 0163, 0170): libxml2-wasm validates a document held whole (a month of 100,000 invoices,
 * 213 MiB of XML: 1.8 GiB), so a big file is validated a piece at a time as it is decompressed and decoded.
 *
 * Every list that repeats is *sliced*: the accounts, customers, suppliers and products of `MasterFiles`,
 * the general ledger's transactions, the invoices, stock movements, working documents and receipts of
 * `SourceDocuments`. Everything else is the *frame* (the declaration, `Header`, the tax table, each
 * section's control totals, each journal's head). A piece is the frame read so far, a slice of consecutive
 * entries, what they reference, and the closing tags of the elements still open, each part at its place in
 * the file. Every entry and every part of the frame is in some piece with the same ancestors, so its
 * structure is judged as in the whole; the cuts fall where the XSD asks for nothing more (every sliced list
 * and every later sibling is optional — but for accounts, of which the chart's first is in every piece:
 * valid files cut anywhere stay valid, tests/unit/server/saft-schema-pieces.test.ts).
 *
 * The identity constraints across the file are kept:
 * - a keyref (a document's `CustomerID`, `SupplierID`, a line's `ProductCode` or `AccountID`, an account's
 *   `GroupingCode`) finds its master entry in the piece because the piece holds every account, customer,
 *   supplier or product of that key, and what those name in turn (an account's grouping accounts). The
 *   masters are held: any later slice may name them. The chart of accounts is cut only once it is whole,
 *   since an account may group under one that comes after it;
 * - a master whose key came before brings the earlier entries into its piece, so libxml2 itself says it
 *   repeats, at its line, as in the whole (it compares with earlier entries that were valid);
 * - a document (invoice, stock movement, working document, receipt, transaction) whose number came before
 *   brings the first entry of that number, read again from the file (`open` is called again): documents
 *   are not held, only their numbers. That first entry is valid, or its own piece would have complained
 *   and the check stopped there, so libxml2 finds the repeat.
 * Keys are compared loosely (entities decoded, all whitespace dropped): a piece may hold an entry too
 * many, which only repeats that entry's own complaints, never one too few.
 *
 * Each piece maps its lines back to the file's, so a complaint says `line N` of the upload. Memory: the
 * slice, the frame (held to `maxFrameChars`), the masters and the documents' numbers.
 */

export interface SchemaPiece {
  /** A document of its own, as text (declaration included when the file has one). */
  xml: string;
  /** The line of the file a line of `xml` comes from. */
  fileLine(pieceLine: number): number;
  /** How many invoices of its slice it holds: the check's progress. */
  invoices: number;
}

export interface SchemaPieceOptions {
  /** Characters of sliced entries per piece (the last piece has what is left). */
  sliceChars: number;
  /** The most characters of frame, and of chart of accounts, held; a file with more is not cut (`FRAME_TOO_LARGE`). */
  maxFrameChars: number;
}

/** The file's text from its start, as the reader opens it: `first`, then `next` until null. */
export interface SchemaText {
  first: string;
  next: () => string | null;
}

/**
 * `ok`: every piece was handed over, or `onPiece` asked to stop. `FRAME_TOO_LARGE`: the parts of the file
 * that are not sliced are too big to be repeated in each piece, or the chart of accounts to be held whole. `UNREADABLE`: markup left open at the end
 * (the SAF-T reader refuses such a file before it is checked).
 */
export type SchemaPiecesEnd =
  | { ok: true; pieces: number; stopped: boolean }
  | { ok: false; reason: 'FRAME_TOO_LARGE' | 'UNREADABLE' };

/** Entries held for the whole check: later slices name them (keyrefs). */
type MasterKind = 'Account' | 'Customer' | 'Supplier' | 'Product';
/** Entries not held: only their numbers, to bring the first back when one repeats. */
type DocumentKind = 'Invoice' | 'StockMovement' | 'WorkDocument' | 'Payment' | 'Transaction';
type Kind = MasterKind | DocumentKind;

interface Span {
  text: string;
  /** Where it starts in the file: characters and line. */
  offset: number;
  line: number;
  /** Line breaks in `text`. */
  breaks: number;
}

/** Where an entry is in the file, to read it again. */
interface Place {
  offset: number;
  line: number;
  length: number;
}

/** The element whose children are sliced, by the path of its ancestors' local names. */
const SLICED_UNDER: Record<string, readonly Kind[]> = {
  'AuditFile/MasterFiles/GeneralLedgerAccounts': ['Account'],
  'AuditFile/MasterFiles': ['Customer', 'Supplier', 'Product'],
  'AuditFile/GeneralLedgerEntries/Journal': ['Transaction'],
  'AuditFile/SourceDocuments/SalesInvoices': ['Invoice'],
  'AuditFile/SourceDocuments/MovementOfGoods': ['StockMovement'],
  'AuditFile/SourceDocuments/WorkingDocuments': ['WorkDocument'],
  'AuditFile/SourceDocuments/Payments': ['Payment'],
};

/** The field that is each kind's `unique` key in the XSD (its first element). */
const KEY_FIELD: Record<Kind, string> = {
  Account: 'AccountID',
  Customer: 'CustomerID',
  Supplier: 'SupplierID',
  Product: 'ProductCode',
  Invoice: 'InvoiceNo',
  StockMovement: 'DocumentNumber',
  WorkDocument: 'DocumentNumber',
  Payment: 'PaymentRefNo',
  Transaction: 'TransactionID',
};

/** The master a field names wherever it appears (the XSD's keyrefs; loosely, outside them too). */
const NAMED_BY: Record<string, MasterKind> = {
  AccountID: 'Account',
  GroupingCode: 'Account',
  CustomerID: 'Customer',
  SupplierID: 'Supplier',
  ProductCode: 'Product',
};

const MASTER_KINDS: Record<MasterKind, true> = {
  Account: true,
  Customer: true,
  Supplier: true,
  Product: true,
};
const isMaster = (kind: Kind): kind is MasterKind => kind in MASTER_KINDS;

type Names = Record<MasterKind, Set<string>>;
const noNames = (): Names => ({
  Account: new Set(),
  Customer: new Set(),
  Supplier: new Set(),
  Product: new Set(),
});

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** A key as compared here: markup of CDATA and comments gone, entities decoded, no whitespace at all. */
function looseKey(raw: string): string {
  return raw
    .replace(/<!--[\s\S]*?-->|<!\[CDATA\[|\]\]>/g, '')
    .replace(/&(#x[0-9a-fA-F]+|#\d+|[a-z]+);/g, (whole, e: string) => {
      if (e[0] !== '#') return ENTITIES[e] ?? whole;
      const code = e[1] === 'x' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    })
    .replace(/\s+/g, '');
}

const FIELD =
  /<(?:[A-Za-z_][\w.-]*:)?(AccountID|GroupingCode|CustomerID|SupplierID|ProductCode|InvoiceNo|DocumentNumber|PaymentRefNo|TransactionID)\s*>((?:[^<]|<!\[CDATA\[[\s\S]*?\]\]>|<!--[\s\S]*?-->)*)<\//g;

/** Every field that names a master or is a kind's key, in a text, by field, in order. */
function fieldsOf(text: string): { field: string; key: string }[] {
  const found: { field: string; key: string }[] = [];
  FIELD.lastIndex = 0;
  for (let m = FIELD.exec(text); m !== null; m = FIELD.exec(text))
    found.push({ field: m[1]!, key: looseKey(m[2]!) });
  return found;
}

/** A copy of its own: a slice of a decoded piece would keep the whole piece alive (see domain/xml.ts). */
const detached = (value: string) => (value.length < 13 ? value : `${value}.`.slice(0, -1));

const countBreaks = (text: string, from = 0, to = text.length) => {
  let n = 0;
  for (let k = text.indexOf('\n', from); k !== -1 && k < to; k = text.indexOf('\n', k + 1)) n++;
  return n;
};

const hasContent = (text: string) => /\S/.test(text);

/** The index after the markup starting at `lt`, or -1 when it does not end within `text`. */
function markupEnd(text: string, lt: number): number {
  if (text.startsWith('<!--', lt)) {
    const end = text.indexOf('-->', lt + 4);
    return end === -1 ? -1 : end + 3;
  }
  if (text.startsWith('<![CDATA[', lt)) {
    const end = text.indexOf(']]>', lt + 9);
    return end === -1 ? -1 : end + 3;
  }
  if (text.charCodeAt(lt + 1) === 63 /* ? */) {
    const end = text.indexOf('?>', lt + 2);
    return end === -1 ? -1 : end + 2;
  }
  // A tag: `>` outside attribute values (which may hold one).
  let quote = 0;
  for (let k = lt + 1; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (quote !== 0) {
      if (c === quote) quote = 0;
    } else if (c === 34 || c === 39) quote = c;
    else if (c === 62) return k + 1;
  }
  return -1;
}

/** The entries at `places` (in the file's order), read again from the file's start. */
function readAgain(open: () => SchemaText, places: readonly Place[]): Span[] {
  if (places.length === 0) return [];
  const text = open();
  let chunk = text.first;
  /** The file's character offset of `chunk[0]`. */
  let chunkOffset = 0;
  return places.map(({ offset, line, length }) => {
    const parts: string[] = [];
    for (let from = offset; from < offset + length; ) {
      while (chunkOffset + chunk.length <= from) {
        const piece = text.next();
        if (piece === null) throw new Error('SAF-T schema pieces: the file is shorter the second time');
        chunkOffset += chunk.length;
        chunk = piece;
      }
      const to = Math.min(offset + length, chunkOffset + chunk.length);
      parts.push(chunk.slice(from - chunkOffset, to - chunkOffset));
      from = to;
    }
    return spanOf(parts.join(''), offset, line);
  });
}

const spanOf = (text: string, offset: number, line: number): Span => ({
  text: detached(text),
  offset,
  line,
  breaks: countBreaks(text),
});

/**
 * The text of a SAF-T file (`open()`, read once in order; again only to bring back an earlier document
 * whose number repeats) cut into pieces, each handed to `onPiece` in the file's order; `onPiece` answers
 * false to stop. The check stops at the first piece with complaints (every complaint about an earlier line
 * is in it, decision 0163), and a repeated document number relies on that: its first entry, in an earlier
 * piece, was then valid.
 */
export function cutSaftForSchema(
  open: () => SchemaText,
  options: SchemaPieceOptions,
  onPiece: (piece: SchemaPiece) => boolean,
): SchemaPiecesEnd {
  const source = open();
  let buf = source.first;
  /** The file's character offset of `buf[0]`. */
  let bufOffset = 0;
  /** Lines counted up to `buf[countedAt]`: the indices asked for only grow until `buf` is cut. */
  let countedAt = 0;
  let countedLine = 1;
  const stack: { qname: string; name: string }[] = [];
  const frame: Span[] = [];
  let frameChars = 0;
  /** Masters the frame names, found as its spans are kept (none in a valid file: every list is sliced). */
  const frameNames = noNames();
  const masters: Record<MasterKind, Map<string, Span[]>> = {
    Account: new Map(),
    Customer: new Map(),
    Supplier: new Map(),
    Product: new Map(),
  };
  /** What each master names itself, when it names anything. */
  const masterRefs = new Map<Span, [MasterKind, string][]>();
  /** The chart's first account. */
  let firstAccount: Span | null = null;
  /** Each document number's first entry, by kind (each kind its own `unique`). */
  const firstDocuments: Record<DocumentKind, Map<string, Place>> = {
    Invoice: new Map(),
    StockMovement: new Map(),
    WorkDocument: new Map(),
    Payment: new Map(),
    Transaction: new Map(),
  };
  let slice: Span[] = [];
  let sliceNames = noNames();
  /** First entries of numbers the slice repeats, from before the slice, by offset. */
  let sliceRepeats = new Map<number, Place>();
  let sliceChars = 0;
  let sliceInvoices = 0;
  let pieces = 0;
  /** The run being read (frame or one sliced entry): where it starts and the parts already cut from `buf`. */
  let runStart = 0;
  let runOffset = 0;
  let runLine = 1;
  let runParts: string[] = [];
  let inEntry: { kind: Kind; depth: number } | null = null;

  const lineAt = (index: number) => {
    countedLine += countBreaks(buf, countedAt, index);
    countedAt = index;
    return countedLine;
  };
  const runText = (end: number) => {
    runParts.push(buf.slice(runStart, end));
    const text = runParts.length === 1 ? runParts[0]! : runParts.join('');
    runParts = [];
    return text;
  };
  const startRun = (at: number) => {
    runStart = at;
    runOffset = bufOffset + at;
    runLine = lineAt(at);
  };
  /** Tells `onName` each master `text` names; answers its own key as `kind` (its first key field). */
  const namesOf = (text: string, kind: Kind | null, onName: (named: MasterKind, key: string) => void) => {
    let key: string | undefined;
    for (const found of fieldsOf(text)) {
      if (kind !== null && key === undefined && found.field === KEY_FIELD[kind]) key = found.key;
      else {
        const named = NAMED_BY[found.field];
        if (named) onName(named, found.key);
      }
    }
    return key;
  };

  const keepFrame = (text: string): boolean => {
    // Whitespace between entries is what the XSD ignores in element-only content: not kept.
    if (!hasContent(text)) return true;
    frameChars += text.length;
    if (frameChars > options.maxFrameChars) return false;
    frame.push(spanOf(text, runOffset, runLine));
    namesOf(text, null, (named, key) => frameNames[named].add(key));
    return true;
  };

  /** An entry's key: a master's kept with it, a document's first place remembered or its repeat noted. */
  const keepKey = (kind: Kind, key: string, span: Span, length: number) => {
    if (isMaster(kind)) {
      const list = masters[kind].get(key);
      if (list) list.push(span);
      else masters[kind].set(key, [span]);
      // Its own key named: an earlier entry with the same key comes into the piece, where libxml2 finds the repeat.
      sliceNames[kind].add(key);
      return;
    }
    const first = firstDocuments[kind].get(key);
    if (!first) firstDocuments[kind].set(key, { offset: span.offset, line: span.line, length });
    // Its first entry is in an earlier piece: read again into this one, where libxml2 finds the repeat.
    else if (first.offset < slice[0]!.offset) sliceRepeats.set(first.offset, first);
  };

  const keepEntry = (kind: Kind, text: string) => {
    const span = spanOf(text, runOffset, runLine);
    // A master's own names (an account's grouping account) come with it into any piece that names it.
    const refs: [MasterKind, string][] = [];
    const key = namesOf(text, kind, (named, name) => {
      sliceNames[named].add(name);
      if (isMaster(kind)) refs.push([named, name]);
    });
    if (refs.length > 0) masterRefs.set(span, refs);
    if (kind === 'Account') firstAccount ??= span;
    slice.push(span);
    if (key !== undefined) keepKey(kind, key, span, text.length);
    sliceChars += text.length;
    if (kind === 'Invoice') sliceInvoices++;
  };

  /** The piece of the frame so far, the slice and what it references; false when told to stop. */
  const emit = (): boolean => {
    const repeated = readAgain(
      open,
      [...sliceRepeats.values()].sort((a, b) => a.offset - b.offset),
    );
    const inSlice = new Set(slice);
    const named = new Set<Span>();
    /** Masters asked for, by kind and key, and those still to bring (a list, not recursion: a chain may be long). */
    const asked = noNames();
    const toBring: [MasterKind, string][] = [];
    const ask = (kind: MasterKind, key: string) => {
      if (asked[kind].has(key)) return;
      asked[kind].add(key);
      toBring.push([kind, key]);
    };
    const bring = (span: Span) => {
      if (!inSlice.has(span)) named.add(span);
      for (const [kind, key] of masterRefs.get(span) ?? []) ask(kind, key);
    };
    // The documents brought back name masters too, which must then be in the piece.
    for (const span of repeated) namesOf(span.text, null, ask);
    for (const kind of Object.keys(masters) as MasterKind[])
      for (const names of [frameNames[kind], sliceNames[kind]]) for (const key of names) ask(kind, key);
    // The XSD asks for one account at least where the chart is: its first, in every piece after it.
    if (firstAccount) bring(firstAccount);
    for (let next = toBring.pop(); next; next = toBring.pop())
      for (const span of masters[next[0]].get(next[1]) ?? []) bring(span);
    const spans = [...frame, ...slice, ...repeated, ...named];
    // Stable: an entry sent twice stays twice, in place.
    spans.sort((a, b) => a.offset - b.offset);
    const parts: string[] = [];
    /** Each span's first line in the piece and in the file. */
    const pieceLines: number[] = [];
    const fileLines: number[] = [];
    let line = 1;
    let endsWithBreak = true;
    for (const span of spans) {
      // Each span starts a line of its own (whitespace between elements), so a line maps to one span.
      if (!endsWithBreak) {
        parts.push('\n');
        line++;
      }
      pieceLines.push(line);
      fileLines.push(span.line);
      parts.push(span.text);
      line += span.breaks;
      endsWithBreak = span.text.endsWith('\n');
    }
    for (let k = stack.length - 1; k >= 0; k--) parts.push(`</${stack[k]!.qname}>`);
    const fileLine = (pieceLine: number) => {
      if (pieceLines.length === 0) return pieceLine;
      let lo = 0;
      let hi = pieceLines.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (pieceLines[mid]! <= pieceLine) lo = mid;
        else hi = mid - 1;
      }
      return fileLines[lo]! + (pieceLine - pieceLines[lo]!);
    };
    pieces++;
    const go = onPiece({ xml: parts.join(''), fileLine, invoices: sliceInvoices });
    slice = [];
    sliceNames = noNames();
    sliceRepeats = new Map();
    sliceChars = 0;
    sliceInvoices = 0;
    return go;
  };

  /**
   * After an entry of `kind`: the slice cut into a piece once full; an end when told to stop. Not inside the
   * chart of accounts: an account may group under one that comes after it (its `GroupingCode`, a keyref
   * resolved at the file's end), so the chart is cut only once it is whole, and held to the frame's bound.
   */
  const afterEntry = (kind: Kind): SchemaPiecesEnd | null => {
    if (kind === 'Account')
      return sliceChars > options.maxFrameChars ? { ok: false, reason: 'FRAME_TOO_LARGE' } : null;
    return sliceChars >= options.sliceChars && !emit() ? { ok: true, pieces, stopped: true } : null;
  };

  /** Drops `buf` before `keep` (the run's part of it kept aside) and appends the next piece; false at the end. */
  const readMore = (keep: number): boolean => {
    const piece = source.next();
    if (piece === null) return false;
    if (runStart < keep) {
      runParts.push(buf.slice(runStart, keep));
      runStart = keep;
    }
    lineAt(keep);
    countedAt = 0;
    bufOffset += keep;
    buf = buf.slice(keep) + piece;
    runStart -= keep;
    return true;
  };

  let i = 0;
  for (;;) {
    const lt = buf.indexOf('<', i);
    const end = lt === -1 ? -1 : markupEnd(buf, lt);
    if (end === -1) {
      // The markup (or the text before one) goes on in the next piece.
      if (readMore(lt === -1 ? buf.length : lt)) {
        i = 0;
        continue;
      }
      break;
    }
    i = end;
    const c = buf.charCodeAt(lt + 1);
    if (c === 33 /* ! */ || c === 63 /* ? */) continue;
    if (c === 47 /* / */) {
      stack.pop();
      if (inEntry && stack.length === inEntry.depth) {
        const kind = inEntry.kind;
        keepEntry(kind, runText(end));
        inEntry = null;
        startRun(end);
        const ended = afterEntry(kind);
        if (ended) return ended;
      }
      continue;
    }
    let p = lt + 1;
    for (let k = buf.charCodeAt(p); p < end && k !== 47 && k !== 62 && k > 32; k = buf.charCodeAt(++p));
    const qname = buf.slice(lt + 1, p);
    const name = qname.slice(qname.indexOf(':') + 1);
    const selfClosing = buf.charCodeAt(end - 2) === 47;
    const kinds =
      inEntry === null && (stack.length === 2 || stack.length === 3)
        ? SLICED_UNDER[stack.map((s) => s.name).join('/')]
        : undefined;
    if (kinds?.includes(name as Kind)) {
      // The frame up to here, then the entry's own run.
      if (!keepFrame(runText(lt))) return { ok: false, reason: 'FRAME_TOO_LARGE' };
      startRun(lt);
      if (selfClosing) {
        keepEntry(name as Kind, runText(end));
        startRun(end);
        const ended = afterEntry(name as Kind);
        if (ended) return ended;
        continue;
      }
      inEntry = { kind: name as Kind, depth: stack.length };
    }
    if (!selfClosing) stack.push({ qname, name });
  }
  if (inEntry || stack.length > 0) return { ok: false, reason: 'UNREADABLE' };
  if (!keepFrame(runText(buf.length))) return { ok: false, reason: 'FRAME_TOO_LARGE' };
  const stopped = !emit();
  return { ok: true, pieces, stopped };
}
