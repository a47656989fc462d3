import { decodeBytes } from '../../domain/statements/decode';
import { detectFormat, parseStatement } from '../../domain/statements/detect';
import { containerKindOf, controlCharacterLine } from '../../domain/statements/sniff';
import type { CsvMapping, ParseResult } from '../../domain/statements/types';
import { type RefusalCode, refuse } from '../platform/refusal';

/**
 * What a statement upload is refused for from its bytes alone, before any job exists (issue 27,
 * decision 0122): no job may fail for a reason visible in the file. The cheap checks (empty, a binary
 * container) run on the request's thread at once; the rest (decoding, control characters, the parse,
 * the currency) is `readStatementUpload`, which the import runs off the event loop.
 */

/** The one currency statements are imported in: amounts are cents of it everywhere downstream. */
export const STATEMENT_CURRENCY = 'EUR';

/** Empty, or a ZIP/Office/PDF/image/archive whatever its name says: refused before anything waits. */
export function refuseUnlessStatementBytes(bytes: Uint8Array): void {
  if (bytes.byteLength === 0) throw refuse('STATEMENT_EMPTY');
  const container = containerKindOf(bytes);
  if (container !== null) throw refuse('STATEMENT_NOT_A_STATEMENT', { extra: { container } });
}

/** A refusal as data: what a worker thread can send back (a thrown Refusal loses its class there). */
export interface UploadRefusal {
  code: RefusalCode;
  extra?: Record<string, string | number>;
}

/** The file as the preview read it, or why it cannot be imported (its line keys depend on the account chosen for it: import-plan.ts). */
export type StatementReading = { refused: UploadRefusal } | { parsed: ParseResult };

/**
 * The upload's bytes, or how to take them: taken, they are referenced from nowhere here once decoded, so
 * a reader that owns its copy (the worker, statement-reader.ts) holds the bytes or the text, never both
 * through the parse (decision 0144, 600,000 lines: 37 MiB less at the read's peak).
 */
export type UploadBytes = Uint8Array | (() => Uint8Array);

/**
 * Decodes once, refuses control characters (with their line) before parsing, parses with the same
 * domain code as the preview and refuses any currency but EUR. Pure CPU: the
 * import runs it in a worker thread for big files (statement-reader.ts).
 */
export function readStatementUpload(upload: UploadBytes, mapping: CsvMapping | undefined): StatementReading {
  const decoded = decodeBytes(typeof upload === 'function' ? upload() : upload);
  const text = decoded.text.replace(/^\uFEFF/, '');
  if (text.trim() === '') return { refused: { code: 'STATEMENT_EMPTY' } };
  const format = detectFormat(text);
  const line = controlCharacterLine(text, { xml: format === 'camt053', mt940: format === 'mt940' });
  if (line !== null) return { refused: { code: 'STATEMENT_CONTROL_CHARACTERS', extra: { line } } };
  const parsed: ParseResult = { ...parseStatement(text, { mapping }), encoding: decoded.encoding };
  const currency = foreignCurrency(parsed);
  if (currency !== null) return { refused: { code: 'STATEMENT_CURRENCY_UNSUPPORTED', extra: { currency } } };
  return { parsed };
}

/** The first currency other than EUR an account, a balance or an entry is stated in; null when none. */
function foreignCurrency(parsed: ParseResult): string | null {
  for (const statement of parsed.statements)
    if (statement.currency !== null && statement.currency !== STATEMENT_CURRENCY) return statement.currency;
  for (const entry of parsed.entries) if (entry.currency !== STATEMENT_CURRENCY) return entry.currency;
  return null;
}
