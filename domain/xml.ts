import { XMLParser, XMLValidator } from 'fast-xml-parser';

export type XmlParse =
  | { ok: true; doc: Record<string, unknown> }
  | { ok: false; code: string; line?: number };

export const MAX_XML_CHARS = 200_000_000;

/**
 * Parses untrusted XML with every value kept as text (`00012345` stays a string). DOCTYPE/ENTITY
 * declarations are refused before parsing: bank files never need them and they are how entity
 * expansion attacks arrive.
 */
export function parseXmlSafely(
  text: string,
  arrayTags: ReadonlySet<string>,
  maxChars = MAX_XML_CHARS,
): XmlParse {
  if (text.length > maxChars) return { ok: false, code: 'FILE_TOO_LARGE' };
  const decl = /<!(DOCTYPE|ENTITY)/i.exec(text);
  if (decl) return { ok: false, code: 'DOCTYPE_NOT_ALLOWED', line: lineAt(text, decl.index) };
  const valid = XMLValidator.validate(text);
  if (valid !== true) return { ok: false, code: 'MALFORMED_XML', line: valid.err.line };
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    processEntities: true,
    htmlEntities: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
    isArray: (name) => arrayTags.has(name),
  });
  return { ok: true, doc: parser.parse(text) as Record<string, unknown> };
}

export function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** Line numbers of every opening `<tag>` (any namespace prefix), in document order. */
export function openingTagLines(text: string, tag: string): number[] {
  const re = new RegExp(`<(?:[A-Za-z_][\\w.-]*:)?${tag}[\\s>/]`, 'g');
  const lines: number[] = [];
  let line = 1;
  let from = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    for (let i = text.indexOf('\n', from); i !== -1 && i < m.index; i = text.indexOf('\n', i + 1)) line++;
    from = m.index;
    lines.push(line);
  }
  return lines;
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
