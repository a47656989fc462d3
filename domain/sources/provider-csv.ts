import { parseAmount } from '../money';
import { detectDelimiter, parseCsvDate } from '../statements/csv';
import { type ColumnMapping, resolveColumns } from '../statements/csv-mapping';
import { headLines, readCsvRows } from '../statements/csv-rows';
import { refused, type SourceRead } from './refusal';

/**
 * A payment collector's payout report as CSV, read through a column mapping the user saves as for bank
 * CSVs (`domain/statements/csv-mapping.ts`): the Portuguese Multibanco and MB WAY collectors, whose
 * exports have no public documented layout (decision 0149), without code per collector. One row per
 * payment settled in a payout; a payout is the sum of its rows.
 */

export const PROVIDER_CSV_FIELDS = ['payoutId', 'date', 'gross', 'fee', 'net', 'reference'] as const;
export type ProviderCsvField = (typeof PROVIDER_CSV_FIELDS)[number];
/** Without these a payout cannot be rebuilt; `gross`, `fee` and `reference` are optional. */
const REQUIRED: readonly ProviderCsvField[] = ['payoutId', 'date', 'net'];

export type ProviderCsvMapping = ColumnMapping<ProviderCsvField>;

export interface ProviderPayoutRow {
  payoutId: string;
  /** The payout's date (when it is paid to the bank), ISO. */
  date: string;
  /**
   * Cents. `net` = `gross` − `fee`, the fee positive when the collector charges it (a file printing the
   * fee negative, net = gross + fee, is read the same); without a gross column gross = net + fee, without
   * a fee column the fee is gross − net, or 0.
   */
  grossCents: number;
  feeCents: number;
  netCents: number;
  /** The payment's reference (a Multibanco reference, an order id) where the file has one. */
  reference: string | null;
  line: number;
}

export interface ProviderPayout {
  id: string;
  date: string;
  /** In file order. */
  rows: ProviderPayoutRow[];
  grossCents: number;
  feeCents: number;
  netCents: number;
}

export interface ProviderPayoutReport {
  /** By date, then id. */
  payouts: ProviderPayout[];
  rowCount: number;
  delimiter: string;
  /** The last line had no line break: it may have been cut, so it was not read. */
  incomplete: boolean;
}

const rowInvalid = (line: number, column: string, reason: string) =>
  refused('PROVIDER_CSV_ROW_INVALID', line, { column, reason });

type Columns = Partial<Record<ProviderCsvField, number>>;

/** The row's amounts in cents, or the column that cannot be read. */
function amountsOf(
  cell: (field: ProviderCsvField) => string | null,
  line: number,
): { gross: number; fee: number; net: number } | { refusal: ReturnType<typeof rowInvalid> } {
  const read: Partial<Record<'gross' | 'fee' | 'net', number>> = {};
  for (const field of ['gross', 'fee', 'net'] as const) {
    const text = cell(field);
    if (text === null) continue;
    const amount = parseAmount(text);
    if (!amount.ok) return { refusal: rowInvalid(line, field, amount.code) };
    read[field] = amount.cents;
  }
  const { gross, fee, net } = read;
  if (net === undefined) return { refusal: rowInvalid(line, 'net', 'EMPTY') };
  if (gross === undefined) return { gross: net + Math.abs(fee ?? 0), fee: Math.abs(fee ?? 0), net };
  if (fee === undefined) return { gross, fee: gross - net, net };
  if (gross - fee === net) return { gross, fee, net };
  if (gross + fee === net) return { gross, fee: -fee, net };
  return { refusal: rowInvalid(line, 'net', 'NET_NOT_GROSS_MINUS_FEE') };
}

/**
 * The report's text, read with `mapping` → its payouts. Refused whole when the mapping lacks a required
 * field or names a column the header does not have (the missing ones named), when a row cannot be read,
 * or when a payout's rows disagree on its date. A last line without its line break is not read and the
 * report is flagged incomplete, as for Stripe's report (decision 0148).
 */
export function readProviderPayoutCsv(
  text: string,
  mapping: ProviderCsvMapping,
): SourceRead<ProviderPayoutReport> {
  const unmapped = REQUIRED.filter((field) => mapping[field] == null);
  if (unmapped.length > 0) return refused('PROVIDER_CSV_MAPPING_INVALID', 1, { missing: unmapped });
  const headerLine = mapping.headerLine ?? 1;
  const delimiter =
    mapping.delimiter ||
    detectDelimiter(
      headLines(text, 40),
      (cells) => headerLine > 0 && resolveColumns(mapping, cells) !== null,
    );
  const incomplete = text !== '' && !/[\r\n]$/.test(text);
  const records: { cells: string[]; line: number }[] = [];
  const summary = readCsvRows(text, delimiter, (cells, line) => records.push({ cells, line }));
  if (incomplete) records.pop();
  const openQuote = summary.unterminated[0];
  if (openQuote !== undefined && !incomplete) {
    return refused('PROVIDER_CSV_UNREADABLE', openQuote, { reason: 'UNTERMINATED_QUOTE' });
  }
  const kept = records.filter(
    (r) => r.cells.some((c) => c.trim() !== '') && (openQuote === undefined || r.line < openQuote),
  );
  const header = headerLine > 0 ? kept.find((r) => r.line === headerLine) : undefined;
  if (headerLine > 0 && !header)
    return refused('PROVIDER_CSV_UNREADABLE', headerLine, { reason: 'NO_HEADER' });
  const columns: Columns | null = resolveColumns(mapping, header?.cells ?? null);
  if (!columns) {
    const absent = PROVIDER_CSV_FIELDS.filter(
      (field) =>
        mapping[field] != null && resolveColumns({ [field]: mapping[field] }, header?.cells ?? null) === null,
    );
    return refused('PROVIDER_CSV_MAPPING_INVALID', headerLine, { notInHeader: absent });
  }
  const rows = kept.filter((r) => r.line > headerLine);
  if (rows.length === 0) return refused('PROVIDER_CSV_EMPTY', headerLine);

  const payouts = new Map<string, ProviderPayout>();
  for (const { cells, line } of rows) {
    const cell = (field: ProviderCsvField): string | null => {
      const index = columns[field];
      const value = index === undefined ? '' : (cells[index] ?? '').trim();
      return value === '' ? null : value;
    };
    const payoutId = cell('payoutId');
    if (!payoutId) return rowInvalid(line, 'payoutId', 'EMPTY');
    const date = parseCsvDate(cell('date') ?? '');
    if (!date) return rowInvalid(line, 'date', 'NOT_A_DATE');
    const amounts = amountsOf(cell, line);
    if ('refusal' in amounts) return amounts.refusal;
    let payout = payouts.get(payoutId);
    if (!payout) {
      payout = { id: payoutId, date, rows: [], grossCents: 0, feeCents: 0, netCents: 0 };
      payouts.set(payoutId, payout);
    }
    if (payout.date !== date) return rowInvalid(line, 'date', 'DIFFERS_WITHIN_PAYOUT');
    payout.rows.push({
      payoutId,
      date,
      grossCents: amounts.gross,
      feeCents: amounts.fee,
      netCents: amounts.net,
      reference: cell('reference'),
      line,
    });
    payout.grossCents += amounts.gross;
    payout.feeCents += amounts.fee;
    payout.netCents += amounts.net;
  }
  const ordered = [...payouts.values()].sort((a, b) =>
    a.date === b.date ? (a.id < b.id ? -1 : 1) : a.date < b.date ? -1 : 1,
  );
  return { ok: true, value: { payouts: ordered, rowCount: rows.length, delimiter, incomplete } };
}
