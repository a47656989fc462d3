import { parseCamt053 } from './camt053';
import { parseCsvStatement } from './csv';
import { decodeBytes } from './decode';
import { parseMt940 } from './mt940';
import {
  type CsvMapping,
  MAX_STATEMENT_BYTES,
  type ParseResult,
  type StatementEntry,
  type StatementFormat,
  unreadable,
} from './types';

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
  /** camt.053 only: told of the entries as they are read, before the whole file is (`Camt053Options`). */
  onEntries?: (entries: StatementEntry[]) => void;
}

/** Any supported statement file (bytes or already-decoded text) → normalised entries; never throws. */
export function parseStatement(input: Uint8Array | string, options: ParseOptions = {}): ParseResult {
  const requested = options.format ?? 'auto';
  const size = typeof input === 'string' ? input.length : input.byteLength;
  if (size > (options.maxBytes ?? MAX_STATEMENT_BYTES)) {
    return unreadable(requested === 'auto' ? 'csv' : requested, [{ line: 0, code: 'FILE_TOO_LARGE' }]);
  }
  const decoded = typeof input === 'string' ? { text: input, encoding: null } : decodeBytes(input);
  const text = decoded.text.replace(/^\uFEFF/, '');
  const format = requested === 'auto' ? detectFormat(text) : requested;
  try {
    const result =
      format === 'camt053'
        ? parseCamt053(text, { onEntries: options.onEntries })
        : format === 'mt940'
          ? parseMt940(text)
          : parseCsvStatement(text, options.mapping);
    return { ...result, encoding: decoded.encoding };
  } catch {
    // The parsers report problems as errors; this only guards against a bug turning into a crash of the caller.
    return { ...unreadable(format, [{ line: 0, code: 'UNREADABLE' }]), encoding: decoded.encoding };
  }
}
