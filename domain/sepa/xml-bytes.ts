import { decodeWindows1252 } from '../statements/decode';

export type XmlDecoded =
  | { ok: true; xml: string; encoding: 'utf-8' | 'iso-8859-1' | 'windows-1252' }
  /** `found`: the encoding the declaration names, when it is one we do not read. */
  | { ok: false; code: 'UNSUPPORTED_ENCODING' | 'INVALID_BYTES'; found?: string };

/** `<?xml … encoding="…"?>` at the very start: read as ASCII, which every encoding we accept agrees on. */
const DECLARATION = /^<\?xml\s[^?>]*?\bencoding\s*=\s*["']([A-Za-z][A-Za-z0-9._-]*)["']/;

const UTF8 = new Set(['utf-8', 'utf8', 'us-ascii', 'ascii']);
const LATIN1 = new Set(['iso-8859-1', 'iso8859-1', 'latin1', 'latin-1', 'l1', 'iso_8859-1']);
const WINDOWS = new Set(['windows-1252', 'cp1252']);

/** ISO-8859-1 proper: every byte is the code point of the same value. */
function decodeLatin1(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 8192)
    out += String.fromCharCode(...(bytes.subarray(i, i + 8192) as unknown as number[]));
  return out;
}

/**
 * An XML message's bytes as text, honouring its declaration (XML 1.0 §4.3.3): a UTF-8 byte order
 * mark wins; else the declared encoding — UTF-8 (also US-ASCII), ISO-8859-1 or windows-1252, which
 * Portuguese banks' older systems still write; no declaration is UTF-8. Another encoding is refused
 * rather than guessed, and UTF-8 that is not valid UTF-8 is refused: a name read wrongly would be
 * shown to an admin as the bank's words.
 */
export function decodeXmlBytes(bytes: Uint8Array): XmlDecoded {
  const decoder = xmlPieceDecoder(bytes);
  if (!decoder.ok) return decoder;
  try {
    return { ok: true, xml: decoder.decode(bytes, true), encoding: decoder.encoding };
  } catch {
    return { ok: false, code: 'INVALID_BYTES' };
  }
}

export type XmlPieceDecoder =
  | {
      ok: true;
      encoding: 'utf-8' | 'iso-8859-1' | 'windows-1252';
      /**
       * The next piece of the file's bytes as text (the first piece is the `head` the encoding was
       * read from); a character cut between two pieces is read whole with the second. Throws on bytes
       * that are not valid UTF-8, or a character cut by the end (`last`).
       */
      decode(piece: Uint8Array, last: boolean): string;
    }
  | { ok: false; code: 'UNSUPPORTED_ENCODING'; found: string };

/**
 * How a file whose first bytes are `head` decodes, as `decodeXmlBytes` reads it, for a file read in
 * pieces (a SAF-T month decompressed as it is read, decision 0149). `head` needs the declaration whole:
 * its first 256 bytes.
 */
export function xmlPieceDecoder(head: Uint8Array): XmlPieceDecoder {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return utf8Decoder();
  const declared = DECLARATION.exec(decodeLatin1(head.subarray(0, 256)))?.[1]?.toLowerCase() ?? 'utf-8';
  if (UTF8.has(declared)) return utf8Decoder();
  if (LATIN1.has(declared)) return { ok: true, encoding: 'iso-8859-1', decode: decodeLatin1 };
  if (WINDOWS.has(declared)) return { ok: true, encoding: 'windows-1252', decode: decodeWindows1252 };
  return { ok: false, code: 'UNSUPPORTED_ENCODING', found: declared };
}

function utf8Decoder(): XmlPieceDecoder {
  // A leading byte order mark is dropped (TextDecoder's default).
  const decoder = new TextDecoder('utf-8', { fatal: true });
  return {
    ok: true,
    encoding: 'utf-8',
    decode: (piece, last) => decoder.decode(piece, { stream: !last }),
  };
}
