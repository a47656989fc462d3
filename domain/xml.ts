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

interface Frame {
  qname: string;
  obj: Record<string, unknown>;
  text: string;
  /** Children or attributes: the element becomes an object rather than its text. */
  structured: boolean;
}

const ATTR = /\s*([A-Za-z_][\w.:-]*)\s*=\s*("[^"<]*"|'[^'<]*')/y;
const NAME = /[A-Za-z_][\w.:-]*/y;

function insert(parent: Frame, name: string, value: unknown, arrayTags: ReadonlySet<string>): void {
  parent.structured = true;
  const existing = Object.hasOwn(parent.obj, name) ? parent.obj[name] : undefined;
  if (arrayTags.has(name)) {
    if (Array.isArray(existing)) existing.push(value);
    else parent.obj[name] = [value];
  } else if (existing === undefined) parent.obj[name] = value;
  else if (Array.isArray(existing)) existing.push(value);
  else parent.obj[name] = [existing, value];
}

/** An element without children or attributes becomes its text; otherwise an object with `#text`. */
function close(frame: Frame, parent: Frame, arrayTags: ReadonlySet<string>): void {
  const name = localName(frame.qname);
  const text = decodeEntities(frame.text).trim();
  if (!frame.structured) insert(parent, name, text, arrayTags);
  else {
    if (text !== '') frame.obj['#text'] = text;
    insert(parent, name, frame.obj, arrayTags);
  }
}

export interface XmlOptions {
  maxChars?: number;
  /** Elements that record the line of their opening tag under `LINE`. */
  lineTags?: ReadonlySet<string>;
}

/**
 * A small non-validating XML reader for bank files: elements, attributes, text, CDATA, comments,
 * the predefined and numeric entities. Every value stays text (`00012345` is not a number);
 * namespace prefixes are dropped; tags in `arrayTags` are always arrays. DOCTYPE/ENTITY
 * declarations are refused outright (entity expansion), nesting is bounded, and any imbalance
 * (a truncated file) is an error with its line. See decision 0033 for why not fast-xml-parser.
 */
export function parseXmlSafely(
  text: string,
  arrayTags: ReadonlySet<string>,
  options: XmlOptions = {},
): XmlParse {
  if (text.length > (options.maxChars ?? MAX_XML_CHARS)) return { ok: false, code: 'FILE_TOO_LARGE' };
  const decl = /<!(DOCTYPE|ENTITY)/i.exec(text);
  if (decl) return { ok: false, code: 'DOCTYPE_NOT_ALLOWED', line: lineAt(text, decl.index) };
  const fail = (code: string, at: number): XmlParse => ({ ok: false, code, line: lineAt(text, at) });
  const root: Record<string, unknown> = {};
  const stack: Frame[] = [{ qname: '', obj: root, text: '', structured: false }];
  let sawRoot = false;
  let line = 1;
  let counted = 0;
  let i = 0;
  while (i < text.length) {
    const lt = text.indexOf('<', i);
    const chunk = text.slice(i, lt === -1 ? text.length : lt);
    const top = stack[stack.length - 1]!;
    if (stack.length === 1) {
      if (chunk.trim() !== '') return fail('MALFORMED_XML', i);
    } else if (chunk !== '' && !(top.structured && !/\S/.test(chunk))) top.text += chunk;
    if (lt === -1) break;
    if (text.startsWith('<!--', lt)) {
      const end = text.indexOf('-->', lt + 4);
      if (end === -1) return fail('MALFORMED_XML', lt);
      i = end + 3;
    } else if (text.startsWith('<?', lt)) {
      const end = text.indexOf('?>', lt + 2);
      if (end === -1) return fail('MALFORMED_XML', lt);
      i = end + 2;
    } else if (text.startsWith('<![CDATA[', lt)) {
      const end = text.indexOf(']]>', lt + 9);
      if (end === -1 || stack.length === 1) return fail('MALFORMED_XML', lt);
      // Re-escaped so the entity decoding at the end of the element leaves CDATA text as it was.
      top.text += text.slice(lt + 9, end).replace(/&/g, '&amp;');
      i = end + 3;
    } else if (text[lt + 1] === '/') {
      const end = text.indexOf('>', lt + 2);
      const qname = end === -1 ? '' : text.slice(lt + 2, end).trim();
      if (end === -1 || stack.length === 1 || qname !== top.qname) return fail('MALFORMED_XML', lt);
      stack.pop();
      close(top, stack[stack.length - 1]!, arrayTags);
      i = end + 1;
    } else {
      NAME.lastIndex = lt + 1;
      const m = NAME.exec(text);
      if (!m || (stack.length === 1 && sawRoot)) return fail('MALFORMED_XML', lt);
      const qname = m[0];
      // Plain objects are much faster than null-prototype ones; the one name that could touch a prototype is refused.
      if (localName(qname) === '__proto__') return fail('MALFORMED_XML', lt);
      const obj: Record<string, unknown> = {};
      let structured = false;
      let p = NAME.lastIndex;
      for (;;) {
        ATTR.lastIndex = p;
        const a = ATTR.exec(text);
        if (!a) break;
        const attrName = a[1]!;
        if (attrName !== 'xmlns' && !attrName.startsWith('xmlns:')) {
          obj[`@${localName(attrName)}`] = decodeEntities(a[2]!.slice(1, -1));
          structured = true;
        }
        p = ATTR.lastIndex;
      }
      while (text[p] === ' ' || text[p] === '\n' || text[p] === '\r' || text[p] === '\t') p++;
      const selfClosing = text.startsWith('/>', p);
      if (!selfClosing && text[p] !== '>') return fail('MALFORMED_XML', lt);
      if (options.lineTags?.has(localName(qname))) {
        for (let n = text.indexOf('\n', counted); n !== -1 && n < lt; n = text.indexOf('\n', n + 1)) line++;
        counted = lt;
        obj[LINE] = line;
        structured = true;
      }
      const frame: Frame = { qname, obj, text: '', structured };
      sawRoot = true;
      if (selfClosing) {
        close(frame, top, arrayTags);
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
