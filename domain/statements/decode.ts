export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

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
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    return { text: new TextDecoder('windows-1252').decode(bytes), encoding: 'windows-1252' };
  }
}
