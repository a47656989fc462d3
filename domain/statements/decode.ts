import type { TextEncodingName } from './types';

export type { TextEncodingName };

/**
 * What windows-1252 puts at 0x80–0x9F (the WHATWG Encoding Standard's index-windows-1252; every
 * other byte is its own code point, as in latin-1). The five bytes Microsoft leaves undefined
 * (0x81, 0x8D, 0x8F, 0x90, 0x9D) map to the C1 control of the same value, as WHATWG (and so every
 * browser) does, so a CSV decodes identically here and in the console's worker.
 *
 * Written out rather than left to `new TextDecoder('windows-1252')`: Node builds whose decoder
 * takes the latin-1 fast path (Node 20.20 here, for one) return U+0080–U+009F for these bytes,
 * turning `€` into U+0080 and curly quotes into C1 controls (decision 0037).
 */
const WINDOWS_1252_HIGH = [
  0x20ac, 0x0081, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152,
  0x008d, 0x017d, 0x008f, 0x0090, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122,
  0x0161, 0x203a, 0x0153, 0x009d, 0x017e, 0x0178,
];

const WINDOWS_1252 = Uint16Array.from({ length: 256 }, (_, byte) =>
  byte >= 0x80 && byte <= 0x9f ? WINDOWS_1252_HIGH[byte - 0x80]! : byte,
);

/** Bytes converted per String.fromCharCode call: well under engines' argument-count limits. */
const CHUNK = 8192;

/** windows-1252 → text through the table above; pure (runs in the browser's worker too). */
export function decodeWindows1252(bytes: Uint8Array): string {
  const parts: string[] = [];
  const units = new Uint16Array(Math.min(bytes.length, CHUNK));
  for (let start = 0; start < bytes.length; start += CHUNK) {
    const end = Math.min(start + CHUNK, bytes.length);
    for (let i = start; i < end; i++) units[i - start] = WINDOWS_1252[bytes[i]!]!;
    parts.push(String.fromCharCode.apply(null, units.subarray(0, end - start) as unknown as number[]));
  }
  return parts.join('');
}

/**
 * UTF-8 whose every character is below U+0100 — ASCII and Latin-1, Portuguese accents included — as a
 * string of one byte a character; null for any other bytes (a character above U+00FF, a sequence not
 * UTF-8, one cut by the end), which `strictUtf8` reads. The same text `strictUtf8` gives (a character
 * U+0080–U+00FF is exactly the two bytes 0xC2/0xC3 + a continuation byte), at half the memory: the
 * decoder makes a string of two bytes a character as soon as one is not ASCII, 72 MiB for a 37 MB file
 * with accents, held through its whole parse (decision 0150).
 */
function latin1Utf8(bytes: Uint8Array): string | null {
  const parts: string[] = [];
  const units = new Uint8Array(CHUNK);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    let unit = bytes[i]!;
    if (unit >= 0x80) {
      const next = bytes[i + 1];
      if ((unit !== 0xc2 && unit !== 0xc3) || next === undefined || (next & 0xc0) !== 0x80) return null;
      unit = ((unit & 0x1f) << 6) | (next & 0x3f);
      i++;
    }
    units[n++] = unit;
    if (n === CHUNK) {
      parts.push(String.fromCharCode.apply(null, units as unknown as number[]));
      n = 0;
    }
  }
  parts.push(String.fromCharCode.apply(null, units.subarray(0, n) as unknown as number[]));
  return parts.join('');
}

/**
 * Strict UTF-8, except for a character cut by the end of the bytes in a file that has other UTF-8
 * characters: a file cut short is still read as the UTF-8 it is, its last character as U+FFFD, so the
 * parser sees the cut at the end rather than every accent of the file read as windows-1252 (decision
 * 0120). Throws when the bytes are not UTF-8.
 */
function strictUtf8(bytes: Uint8Array): string {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const text = decoder.decode(bytes, { stream: true });
  try {
    return text + decoder.decode();
  } catch (cut) {
    // Nothing but plain ASCII text before the cut: one high byte at the end is windows-1252, not UTF-8.
    if (!/[^ -~\t\r\n]/.test(text)) throw cut;
    return `${text}\uFFFD`;
  }
}

/**
 * Bytes → text: a BOM wins; then UTF-16 without BOM (NULs on alternate bytes); then strict UTF-8;
 * anything that is not valid UTF-8 is read as windows-1252 (what Portuguese bank exports use).
 */
export function decodeBytes(bytes: Uint8Array): { text: string; encoding: TextEncodingName } {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { text: new TextDecoder('utf-8').decode(bytes.subarray(3)), encoding: 'utf-8' };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    return { text: new TextDecoder('utf-16le').decode(bytes.subarray(2)), encoding: 'utf-16le' };
  }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    return { text: new TextDecoder('utf-16be').decode(bytes.subarray(2)), encoding: 'utf-16be' };
  }
  const sample = Math.min(bytes.length, 4096);
  let oddNul = 0;
  let evenNul = 0;
  for (let i = 0; i < sample; i++) if (bytes[i] === 0) i % 2 ? oddNul++ : evenNul++;
  if (sample >= 4 && oddNul > sample / 4 && evenNul === 0) {
    return { text: new TextDecoder('utf-16le').decode(bytes), encoding: 'utf-16le' };
  }
  if (sample >= 4 && evenNul > sample / 4 && oddNul === 0) {
    return { text: new TextDecoder('utf-16be').decode(bytes), encoding: 'utf-16be' };
  }
  const narrow = latin1Utf8(bytes);
  if (narrow !== null) return { text: narrow, encoding: 'utf-8' };
  try {
    return { text: strictUtf8(bytes), encoding: 'utf-8' };
  } catch {
    return { text: decodeWindows1252(bytes), encoding: 'windows-1252' };
  }
}
