// Text for SpreadsheetML: what XML 1.0 cannot carry is dropped, what Excel would reinterpret is escaped.

/**
 * Characters XML 1.0 forbids (C0 controls except tab/LF/CR, U+FFFE/U+FFFF) and unpaired surrogates.
 * A parser refuses the whole part on any of them, so Excel would call the file corrupt.
 */
// With the `u` flag a surrogate pair is one code point, so only an unpaired half matches the range.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching the controls XML forbids is the point.
const ILLEGAL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/gu;
// biome-ignore lint/suspicious/noControlCharactersInRegex: as above.
const ILLEGAL_TEST = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/;

export function dropXmlIllegal(s: string): string {
  return ILLEGAL_TEST.test(s) ? s.replace(ILLEGAL, '') : s;
}

/** Excel's longest cell text; longer text makes it "repair" the file. */
export const MAX_CELL_CHARS = 32_767;

export function clipCellText(s: string): string {
  if (s.length <= MAX_CELL_CHARS) return s;
  const cut = s.charCodeAt(MAX_CELL_CHARS - 1);
  // Never leave half of a surrogate pair.
  return s.slice(0, cut >= 0xd800 && cut <= 0xdbff ? MAX_CELL_CHARS - 1 : MAX_CELL_CHARS);
}

const ESCAPE_TEST = /[&<>\r]|_x[0-9A-Fa-f]{4}_/;

/**
 * Escapes text content: `&`, `<`, `>`; CR as `&#13;` (a parser would turn a literal CR into LF); and a
 * literal `_xHHHH_` as `_x005F_xHHHH_`, because Excel decodes `_xHHHH_` in strings as the character
 * U+HHHH (ECMA-376 ST_Xstring), so the text `_x0041_` would otherwise come back as `A`.
 */
export function xmlText(s: string): string {
  if (!ESCAPE_TEST.test(s)) return s;
  return s
    .replace(/_(x[0-9A-Fa-f]{4}_)/g, '_x005F_$1')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r/g, '&#13;');
}

export function xmlAttr(s: string): string {
  return xmlText(s).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\t/g, '&#9;');
}

/** Leading or trailing whitespace is kept only with xml:space="preserve". */
export function needsPreserve(s: string): boolean {
  if (s.length === 0) return false;
  const a = s.charCodeAt(0);
  const z = s.charCodeAt(s.length - 1);
  return (
    a === 0x20 ||
    a === 0x09 ||
    a === 0x0a ||
    a === 0x0d ||
    z === 0x20 ||
    z === 0x09 ||
    z === 0x0a ||
    z === 0x0d
  );
}
