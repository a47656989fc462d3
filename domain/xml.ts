export type XmlParse =
  | { ok: true; doc: Record<string, unknown> }
  | { ok: false; code: string; line?: number };

export const MAX_XML_CHARS = 200_000_000;
const MAX_DEPTH = 64;
/** Key under which elements named in `lineTags` keep the line their opening tag is on. */
export const LINE = '#line';

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-z]{2,4});/g, (whole, e: string) => {
    if (e[0] !== '#') return ENTITIES[e] ?? whole;
    const code = e[1] === 'x' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

const localName = (qname: string) => qname.slice(qname.indexOf(':') + 1);

/** An element being read; also what `onClose` sees of the elements enclosing the one that closed. */
export interface OpenElement {
  /** Local name (prefix dropped); '' for the document itself, `open[0]`. */
  readonly name: string;
  /** What has been read of it so far: attributes and the children already closed. */
  readonly obj: Record<string, unknown>;
}

interface Frame extends OpenElement {
  readonly qname: string;
  text: string;
  /** Children or attributes: the element becomes an object rather than its text. */
  structured: boolean;
}

const ATTR = /\s*([A-Za-z_][\w.:-]*)\s*=\s*("[^"<]*"|'[^'<]*')/y;
const DECLARATION = /DOCTYPE|ENTITY/iy;

/** `[A-Za-z_]`: what a name starts with. */
function isNameStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}

/** `[\w.:-]`: what a name goes on with. */
function isNameChar(c: number): boolean {
  return isNameStart(c) || (c >= 48 && c <= 58) || c === 46 || c === 45;
}

/** Space, tab, CR, LF: the whitespace of XML files. */
function isAsciiSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/** Whether text[from, to) holds anything but whitespace (any Unicode whitespace, as `\S` means). */
function hasContent(text: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) {
    if (!isAsciiSpace(text.charCodeAt(k))) return /\S/.test(text.slice(k, to));
  }
  return false;
}

function insert(parent: Frame, name: string, value: unknown, arrayTags: ReadonlySet<string>): void {
  parent.structured = true;
  const obj = parent.obj;
  let existing = obj[name];
  // Only own members count: `constructor` or `toString` read through the prototype are not children.
  if (existing !== undefined && !Object.hasOwn(obj, name)) existing = undefined;
  if (arrayTags.has(name)) {
    if (Array.isArray(existing)) existing.push(value);
    else obj[name] = [value];
  } else if (existing === undefined) obj[name] = value;
  else if (Array.isArray(existing)) existing.push(value);
  else obj[name] = [existing, value];
}

/**
 * `value` in memory of its own. A slice of 13 characters or more is, in V8, a view of the text it was
 * cut from: reading in pieces, every value kept from a piece (a document number, a reference) would keep
 * that whole piece alive, and so the whole file. Joined to one character and cut again, the text is
 * copied first (the join is flattened before the cut), and the copy is all the value holds.
 */
const detached = (value: string) => (value.length < 13 ? value : `${value}.`.slice(0, -1));

/** An element without children or attributes becomes its text; otherwise an object with `#text`. */
function elementValue(frame: Frame, pieces: boolean): unknown {
  const decoded = decodeEntities(frame.text).trim();
  const text = pieces ? detached(decoded) : decoded;
  if (!frame.structured) return text;
  if (text !== '') frame.obj['#text'] = text;
  return frame.obj;
}

/** Whether `</qname` at `from` is closed by `>` after optional whitespace; returns the index after `>`, else -1. */
function closingTagEnd(text: string, from: number, qname: string): number {
  if (!text.startsWith(qname, from)) return -1;
  let p = from + qname.length;
  while (isAsciiSpace(text.charCodeAt(p))) p++;
  return text.charCodeAt(p) === 62 ? p + 1 : -1;
}

export interface XmlOptions {
  maxChars?: number;
  /** Elements that record the line of their opening tag under `LINE`. */
  lineTags?: ReadonlySet<string>;
  /**
   * Told of each element named in `tags` as it closes, before it goes into the tree: its value and
   * the elements still open around it (`open[0]` the document, last its parent). Lets a reader work
   * on entries while the rest of the file is being read. What `handle` returns goes into the tree in
   * the element's place (a reading of it, so that the tree need not hold every entry); `undefined`
   * keeps the element.
   */
  onClose?: {
    tags: ReadonlySet<string>;
    handle(name: string, value: unknown, open: readonly OpenElement[]): unknown;
  };
  /**
   * The rest of the document after `text`, a piece at a time (null once there is no more): a file read
   * as it is decompressed or decoded, so that it is never held whole (decision 0149). Only what has not
   * been read yet is kept; the answer is the same however the text is cut into pieces. `maxChars`
   * counts every piece.
   */
  next?: () => string | null;
}

/** Whether the markup starting at `lt` (-1: none yet) ends within `text`, as reading in pieces needs. */
function markupComplete(text: string, lt: number): boolean {
  if (lt === -1 || text.length - lt < 9) return false;
  if (text.startsWith('<!--', lt)) return text.indexOf('-->', lt + 4) !== -1;
  if (text.startsWith('<![CDATA[', lt)) return text.indexOf(']]>', lt + 9) !== -1;
  if (text.charCodeAt(lt + 1) === 63 /* ? */) return text.indexOf('?>', lt + 2) !== -1;
  return text.indexOf('<', lt + 1) !== -1;
}

/** The first `<!DOCTYPE` or `<!ENTITY` (any case), or -1. */
function declarationAt(text: string): number {
  for (let k = text.indexOf('<!'); k !== -1; k = text.indexOf('<!', k + 2)) {
    DECLARATION.lastIndex = k + 2;
    if (DECLARATION.test(text)) return k;
  }
  return -1;
}

/**
 * A small non-validating XML reader for bank files: elements, attributes, text, CDATA, comments,
 * the predefined and numeric entities. Every value stays text (`00012345` is not a number);
 * namespace prefixes are dropped; tags in `arrayTags` are always arrays. DOCTYPE/ENTITY
 * declarations are refused outright (entity expansion), nesting is bounded, and any imbalance
 * (a truncated file) is an error with its line. See decision 0033 for why not fast-xml-parser;
 * decision 0103 for why it reads character codes rather than slices and expressions.
 */
export function parseXmlSafely(
  input: string,
  arrayTags: ReadonlySet<string>,
  options: XmlOptions = {},
): XmlParse {
  let text = input;
  const maxChars = options.maxChars ?? MAX_XML_CHARS;
  if (text.length > maxChars) return { ok: false, code: 'FILE_TOO_LARGE' };
  const decl = declarationAt(text);
  if (decl !== -1) return { ok: false, code: 'DOCTYPE_NOT_ALLOWED', line: lineAt(text, decl) };
  const { lineTags, onClose, next: nextPiece } = options;
  // Reading in pieces: `text` holds what is not read yet, `textLine` the line its first character is on.
  let textLine = 1;
  let total = text.length;
  let more = nextPiece !== undefined;
  const fail = (code: string, at: number): XmlParse => ({
    ok: false,
    code,
    line: textLine - 1 + lineAt(text, at),
  });
  const root: Record<string, unknown> = {};
  const stack: Frame[] = [{ qname: '', name: '', obj: root, text: '', structured: false }];
  let sawRoot = false;
  let line = 1;
  let counted = 0;
  let i = 0;
  const closed = (frame: Frame, parent: Frame) => {
    const value = elementValue(frame, nextPiece !== undefined);
    const kept = onClose?.tags.has(frame.name) ? onClose.handle(frame.name, value, stack) : undefined;
    insert(parent, frame.name, kept === undefined ? value : kept, arrayTags);
  };
  /**
   * Drops what is read (before `keep`) and appends the next piece; false at the end of the input or
   * when the input is refused (`refusal` set).
   */
  let refusal: XmlParse | null = null;
  const readMore = (keep: number): boolean => {
    const piece = nextPiece!();
    if (piece === null) {
      more = false;
      return false;
    }
    total += piece.length;
    if (total > maxChars) {
      refusal = { ok: false, code: 'FILE_TOO_LARGE' };
      return false;
    }
    // A declaration may start in the kept text and end in the piece. Only the seam is joined to look:
    // searching `text + piece` whole would copy every piece once more than the reading itself does.
    const seam = Math.max(keep, text.length - 9);
    const seamText = text.slice(seam) + piece.slice(0, 16);
    let found = declarationAt(seamText);
    const inPiece = found === -1 ? declarationAt(piece) : -1;
    if (inPiece !== -1) found = text.length - seam + inPiece;
    if (found !== -1) {
      const joined = text.slice(seam) + piece;
      const line = textLine - 1 + lineAt(text, seam) + lineAt(joined, found) - 1;
      refusal = { ok: false, code: 'DOCTYPE_NOT_ALLOWED', line };
      return false;
    }
    if (lineTags) {
      for (let n = text.indexOf('\n', counted); n !== -1 && n < keep; n = text.indexOf('\n', n + 1)) line++;
    }
    for (let n = text.indexOf('\n'); n !== -1 && n < keep; n = text.indexOf('\n', n + 1)) textLine++;
    text = text.slice(keep) + piece;
    counted = 0;
    i -= keep;
    return true;
  };
  for (;;) {
    if (i >= text.length) {
      if (more && readMore(i)) continue;
      if (refusal) return refusal;
      break;
    }
    const lt = text.indexOf('<', i);
    // Reading in pieces, a markup is read once all of it is here: a tag up to the next `<` (its
    // attribute values cannot hold one), a comment, CDATA or instruction up to its end.
    if (more && !markupComplete(text, lt)) {
      if (readMore(i)) continue;
      if (refusal) return refusal;
    }
    const to = lt === -1 ? text.length : lt;
    const top = stack[stack.length - 1]!;
    if (to > i) {
      if (stack.length === 1) {
        if (hasContent(text, i, to)) return fail('MALFORMED_XML', i);
      } else if (!top.structured || hasContent(text, i, to)) top.text += text.slice(i, to);
    }
    if (lt === -1) break;
    const next = text.charCodeAt(lt + 1);
    if (next === 33 /* ! */ && text.startsWith('<!--', lt)) {
      const end = text.indexOf('-->', lt + 4);
      if (end === -1) return fail('MALFORMED_XML', lt);
      i = end + 3;
    } else if (next === 63 /* ? */) {
      const end = text.indexOf('?>', lt + 2);
      if (end === -1) return fail('MALFORMED_XML', lt);
      i = end + 2;
    } else if (next === 33 && text.startsWith('<![CDATA[', lt)) {
      const end = text.indexOf(']]>', lt + 9);
      if (end === -1 || stack.length === 1) return fail('MALFORMED_XML', lt);
      // Re-escaped so the entity decoding at the end of the element leaves CDATA text as it was.
      top.text += text.slice(lt + 9, end).replace(/&/g, '&amp;');
      i = end + 3;
    } else if (next === 47 /* / */) {
      if (stack.length === 1) return fail('MALFORMED_XML', lt);
      let after = closingTagEnd(text, lt + 2, top.qname);
      if (after === -1) {
        // Not the plain `</name>`: the general rule (the name, trimmed, up to the first `>`).
        const end = text.indexOf('>', lt + 2);
        if (end === -1 || text.slice(lt + 2, end).trim() !== top.qname) return fail('MALFORMED_XML', lt);
        after = end + 1;
      }
      stack.pop();
      closed(top, stack[stack.length - 1]!);
      i = after;
    } else {
      if (!isNameStart(next) || (stack.length === 1 && sawRoot)) return fail('MALFORMED_XML', lt);
      let p = lt + 2;
      while (isNameChar(text.charCodeAt(p))) p++;
      const qname = text.slice(lt + 1, p);
      const name = localName(qname);
      // Plain objects are much faster than null-prototype ones; the one name that could touch a prototype is refused.
      if (name === '__proto__') return fail('MALFORMED_XML', lt);
      const obj: Record<string, unknown> = {};
      let structured = false;
      if (text.charCodeAt(p) !== 62 /* > */) {
        for (;;) {
          ATTR.lastIndex = p;
          const a = ATTR.exec(text);
          if (!a) break;
          const attrName = a[1]!;
          if (attrName !== 'xmlns' && !attrName.startsWith('xmlns:')) {
            const value = decodeEntities(a[2]!.slice(1, -1));
            obj[`@${localName(attrName)}`] = nextPiece === undefined ? value : detached(value);
            structured = true;
          }
          p = ATTR.lastIndex;
        }
        while (isAsciiSpace(text.charCodeAt(p))) p++;
      }
      const selfClosing = text.startsWith('/>', p);
      if (!selfClosing && text.charCodeAt(p) !== 62) return fail('MALFORMED_XML', lt);
      if (lineTags?.has(name)) {
        for (let n = text.indexOf('\n', counted); n !== -1 && n < lt; n = text.indexOf('\n', n + 1)) line++;
        counted = lt;
        obj[LINE] = line;
        structured = true;
      }
      const frame: Frame = { qname, name, obj, text: '', structured };
      sawRoot = true;
      if (selfClosing) {
        closed(frame, top);
        i = p + 2;
      } else {
        if (stack.length > MAX_DEPTH) return fail('TOO_DEEP', lt);
        stack.push(frame);
        i = p + 1;
      }
    }
  }
  if (stack.length !== 1 || !sawRoot) return fail('MALFORMED_XML', text.length);
  return { ok: true, doc: root };
}

export function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

type Node = unknown;

/** Walks a parsed tree by element names, taking the first element of arrays on the way. */
export function at(node: Node, ...path: string[]): Node {
  let cur: Node = node;
  for (const key of path) {
    if (Array.isArray(cur)) cur = cur[0];
    if (cur == null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, Node>)[key];
  }
  return Array.isArray(cur) ? cur[0] : cur;
}

/** Text content of a node, whether it was parsed as a string or as an element with attributes. */
export function text(node: Node, ...path: string[]): string | null {
  const n = at(node, ...path);
  if (typeof n === 'string') return n.trim();
  if (n && typeof n === 'object' && '#text' in n)
    return String((n as Record<string, unknown>)['#text']).trim();
  return null;
}

export function attr(node: Node, name: string, ...path: string[]): string | null {
  const n = at(node, ...path);
  if (n && typeof n === 'object') {
    const v = (n as Record<string, unknown>)[`@${name}`];
    return typeof v === 'string' ? v : null;
  }
  return null;
}

export function list(node: Node, ...path: string[]): Node[] {
  if (path.length === 0) return Array.isArray(node) ? node : node == null ? [] : [node];
  const parent = at(node, ...path.slice(0, -1));
  if (parent == null || typeof parent !== 'object') return [];
  const v = (parent as Record<string, Node>)[path[path.length - 1]!];
  return Array.isArray(v) ? v : v == null ? [] : [v];
}
