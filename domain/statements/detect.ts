import { parseCamt053 } from './camt053';
import { type CsvMapping, parseCsvStatement } from './csv';
import { decodeBytes } from './decode';
import { parseMt940 } from './mt940';
import { MAX_STATEMENT_BYTES, type ParseResult, type StatementFormat } from './types';

export function detectFormat(text: string): StatementFormat {
  const head = text
    .slice(0, 4096)
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (head.startsWith('<')) return 'camt053';
  if (/^:20:/m.test(head) || /^\{1:/.test(head) || /^:(25|60F):/m.test(head)) return 'mt940';
  return 'csv';
}

export interface ParseOptions {
  format?: StatementFormat | 'auto';
  mapping?: CsvMapping;
  maxBytes?: number;
}

/** Any supported statement file (bytes or already-decoded text) → normalised entries; never throws. */
export function parseStatement(input: Uint8Array | string, options: ParseOptions = {}): ParseResult {
  const requested = options.format ?? 'auto';
  const size = typeof input === 'string' ? input.length : input.byteLength;
  if (size > (options.maxBytes ?? MAX_STATEMENT_BYTES)) {
    return {
      format: requested === 'auto' ? 'csv' : requested,
      entries: [],
      errors: [{ line: 0, code: 'FILE_TOO_LARGE' }],
      balance: null,
    };
  }
  const text = (typeof input === 'string' ? input : decodeBytes(input).text).replace(/^\uFEFF/, '');
  const format = requested === 'auto' ? detectFormat(text) : requested;
  try {
    if (format === 'camt053') return parseCamt053(text);
    if (format === 'mt940') return parseMt940(text);
    return parseCsvStatement(text, options.mapping);
  } catch {
    // The parsers report problems as errors; this only guards against a bug turning into a crash of the caller.
    return { format, entries: [], errors: [{ line: 0, code: 'UNREADABLE' }], balance: null };
  }
}
