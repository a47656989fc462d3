/**
 * What a statement upload is, from its bytes alone, before anything is parsed (issue 27, decision 0122).
 * A file's name and the type a browser declares are the uploader's claims; the first bytes are the
 * file's own. Pure: the server's upload guards and the console's preview worker can both use it.
 */

/** Containers and binary formats a bank statement never is, by their signature at offset 0. */
const CONTAINER_SIGNATURES: ReadonlyArray<readonly [kind: string, signature: readonly (number | null)[]]> = [
  // ZIP: xlsx, docx, ods, odt and every other Office Open XML / OpenDocument file, jar, plain zip.
  ['zip', [0x50, 0x4b, 0x03, 0x04]],
  ['zip', [0x50, 0x4b, 0x05, 0x06]],
  ['zip', [0x50, 0x4b, 0x07, 0x08]],
  // OLE compound file: xls, doc, msg.
  ['ole', [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]],
  ['pdf', [0x25, 0x50, 0x44, 0x46, 0x2d]],
  ['png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ['jpeg', [0xff, 0xd8, 0xff]],
  ['gif', [0x47, 0x49, 0x46, 0x38]],
  // RIFF, four bytes of length, WEBP.
  ['webp', [0x52, 0x49, 0x46, 0x46, null, null, null, null, 0x57, 0x45, 0x42, 0x50]],
  ['tiff', [0x49, 0x49, 0x2a, 0x00]],
  ['tiff', [0x4d, 0x4d, 0x00, 0x2a]],
  ['gzip', [0x1f, 0x8b]],
  ['bzip2', [0x42, 0x5a, 0x68, null, 0x31, 0x41, 0x59, 0x26, 0x53, 0x59]],
  ['xz', [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]],
  ['zstd', [0x28, 0xb5, 0x2f, 0xfd]],
  ['7z', [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]],
  ['rar', [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07]],
  ['elf', [0x7f, 0x45, 0x4c, 0x46]],
  ['sqlite', [...'SQLite format 3'].map((c) => c.charCodeAt(0)).concat(0)],
];

/** The kind of container the bytes are (`zip`, `pdf`, `png`, …), or null when they start like text. */
export function containerKindOf(bytes: Uint8Array): string | null {
  for (const [kind, signature] of CONTAINER_SIGNATURES)
    if (
      bytes.length >= signature.length &&
      signature.every((byte, index) => byte === null || bytes[index] === byte)
    )
      return kind;
  return null;
}

/**
 * C0 controls other than TAB, LF and CR: no bank writes them in a statement, PostgreSQL cannot store a
 * NUL in text, and the others would reach the screen and the exports as invisible characters.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding these characters is the point.
const CONTROL_CHARACTER = /[\x00-\x08\x0b\x0c\x0e-\x1f]/;
/**
 * The same characters written as XML character references (`&#0;`, `&#x1B;`): the camt reader decodes
 * them into the text, so they are refused as if written raw (XML 1.0 forbids them anyway).
 */
const CONTROL_CHARACTER_REFERENCE = /&#(?:0*(?:[0-8]|1[124-9]|2\d|3[01])|x0*(?:[0-8bcef]|1[\da-f]));/i;

/**
 * SWIFT's framing of an MT940 message, which banks leave in exported files (mBank: SOH before `:20:`, ETX
 * after the closing `-`): SOH at the start of a line, ETX at its end, and a DOS end-of-file SUB at the very
 * end. The parser reads around them; they are not text a line carries.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: SWIFT's framing characters are what it finds.
const SWIFT_FRAMING = /^\x01|\x03(?=\r?$)|\x1a(?=\s*$(?![\s\S]))/gm;

/**
 * The first forbidden control character of a statement's text: its 1-based line, or null when none. An
 * MT940's SWIFT framing characters are allowed where SWIFT puts them (`mt940: true`), nowhere else.
 */
export function controlCharacterLine(
  text: string,
  options: { xml: boolean; mt940?: boolean },
): number | null {
  // Replaced by a space, not removed: offsets, and so line numbers, stay the same.
  if (options.mt940) text = text.replace(SWIFT_FRAMING, ' ');
  const raw = CONTROL_CHARACTER.exec(text)?.index;
  const referenced = options.xml ? CONTROL_CHARACTER_REFERENCE.exec(text)?.index : undefined;
  const first = Math.min(raw ?? Number.POSITIVE_INFINITY, referenced ?? Number.POSITIVE_INFINITY);
  if (first === Number.POSITIVE_INFINITY) return null;
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < first; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
