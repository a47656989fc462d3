import { readCsvRows } from '../statements/csv-rows';
import { minorUnits } from './decimal-text';
import { refused, type SourceRead, type SourceRefusal } from './refusal';

/**
 * Stripe's itemized payout reconciliation report (`payout_reconciliation.itemized.*`, the dashboard's
 * "Itemized" download): one row per balance transaction settled by an automatic payout. Columns are found
 * by name (a report can be downloaded with a chosen set, in any order); amounts are major units as
 * Stripe prints them, read exactly into minor units (cents for EUR). Columns and sources:
 * tests/fixtures/sources/SOURCES.md; decision 0148.
 */

/** The columns without which a payout cannot be rebuilt; any other column is optional. */
export const STRIPE_REQUIRED_COLUMNS = [
  'automatic_payout_id',
  'automatic_payout_effective_at',
  'balance_transaction_id',
  'reporting_category',
  'currency',
  'gross',
  'fee',
  'net',
] as const;

type Column =
  | (typeof STRIPE_REQUIRED_COLUMNS)[number]
  | 'created'
  | 'available_on'
  | 'source_id'
  | 'charge_id'
  | 'payment_intent_id'
  | 'description'
  | 'customer_facing_amount'
  | 'customer_facing_currency';

/** Each column the reader takes and the headers it may have: the requested timezone's or the UTC one. */
const HEADERS: Record<Column, readonly string[]> = {
  automatic_payout_id: ['automatic_payout_id'],
  automatic_payout_effective_at: ['automatic_payout_effective_at', 'automatic_payout_effective_at_utc'],
  balance_transaction_id: ['balance_transaction_id'],
  reporting_category: ['reporting_category'],
  currency: ['currency'],
  gross: ['gross'],
  fee: ['fee'],
  net: ['net'],
  created: ['created_utc', 'created'],
  available_on: ['available_on_utc', 'available_on'],
  source_id: ['source_id'],
  charge_id: ['charge_id'],
  payment_intent_id: ['payment_intent_id'],
  description: ['description'],
  customer_facing_amount: ['customer_facing_amount'],
  customer_facing_currency: ['customer_facing_currency'],
};

/** What a reporting category means for reconciliation; the category itself is kept as Stripe wrote it. */
export type StripeRowKind = 'charge' | 'refund' | 'dispute' | 'fee' | 'other';

const KINDS: Record<string, StripeRowKind> = {
  charge: 'charge',
  refund: 'refund',
  refund_failure: 'refund',
  partial_capture_reversal: 'refund',
  dispute: 'dispute',
  dispute_reversal: 'dispute',
  fee: 'fee',
  network_cost: 'fee',
};

/** Decimals of a currency's minor unit where it is not 2 (docs.stripe.com/currencies). */
const EXPONENTS: Record<string, number> = Object.fromEntries([
  ...[
    'BIF',
    'CLP',
    'DJF',
    'GNF',
    'JPY',
    'KMF',
    'KRW',
    'MGA',
    'PYG',
    'RWF',
    'UGX',
    'VND',
    'VUV',
    'XAF',
    'XOF',
    'XPF',
  ].map((code) => [code, 0]),
  ...['BHD', 'JOD', 'KWD', 'OMR', 'TND'].map((code) => [code, 3]),
]);

export const currencyExponent = (currency: string): number => EXPONENTS[currency] ?? 2;

/** The balance transaction that states a payout's own amount (net negative); not a row of the payout. */
export const STRIPE_PAYOUT_CATEGORY = 'payout';

export interface StripeBalanceRow {
  balanceTransactionId: string;
  payoutId: string;
  /** `reporting_category` as printed (`charge`, `refund`, `dispute`, `fee`, `other_adjustment`, …). */
  category: string;
  kind: StripeRowKind;
  /** ISO 4217, upper case (Stripe prints `eur`). */
  currency: string;
  /** Minor units, signed as Stripe prints them; `net` = `gross` − `fee`. */
  grossCents: number;
  feeCents: number;
  netCents: number;
  /** `created_utc` (else `created`) and `available_on_utc` (else `available_on`) as printed. */
  createdAt: string | null;
  availableOn: string | null;
  sourceId: string | null;
  chargeId: string | null;
  paymentIntentId: string | null;
  description: string | null;
  /** What the customer was charged or given back, in their currency's minor units, when the report has it. */
  customerFacingAmountCents: number | null;
  customerFacingCurrency: string | null;
  line: number;
}

export interface StripePayout {
  id: string;
  /** `automatic_payout_effective_at` as printed, and its day: when the payout is expected in the bank. */
  effectiveAt: string;
  effectiveDate: string;
  currency: string;
  /** Its balance transactions, by id (the order of the file does not matter). */
  rows: StripeBalanceRow[];
  grossCents: number;
  feeCents: number;
  /** The sum of the rows' net: what the payout pays. */
  netCents: number;
  /** Whether a stated amount (a `payout` row of the file, or one given by the caller) was checked against `netCents`. */
  amountChecked: boolean;
  /** Per kind: how many rows and their net. */
  byKind: Partial<Record<StripeRowKind, { count: number; netCents: number }>>;
}

export interface StripePayoutReport {
  /** By effective date, then id. */
  payouts: StripePayout[];
  rowCount: number;
  /**
   * The file's last line had no line break: it may have been cut, so its row was not read (and the
   * last payout may be short). The rows read are exactly the rows before it.
   */
  incomplete: boolean;
}

export interface StripeReportOptions {
  /** Each payout's amount in minor units when known elsewhere (the payouts report, the API, the bank). */
  payoutAmounts?: ReadonlyMap<string, number>;
}

/** A Stripe date or time as reports print it (`2026-03-02`, `2026-03-02 00:00:00`, with a zone or not). */
export const STRIPE_DATE_TIME = /^(\d{4}-\d{2}-\d{2})(?:[ T]\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

const rowInvalid = (line: number, column: string, reason: string) =>
  refused('STRIPE_REPORT_ROW_INVALID', line, { column, reason });

type RowRead =
  | { ok: true; row: StripeBalanceRow; effectiveAt: string }
  | { ok: false; refusal: SourceRefusal };

/** A row's cell under a column found in the header, trimmed; null when empty or the column is absent. */
export const stripeCells =
  <C extends string>(cells: readonly string[], at: Partial<Record<C, number>>) =>
  (column: C): string | null => {
    const index = at[column];
    const value = index === undefined ? '' : (cells[index] ?? '').trim();
    return value === '' ? null : value;
  };

function readRow(cells: readonly string[], at: Partial<Record<Column, number>>, line: number): RowRead {
  const cell = stripeCells(cells, at);
  const payoutId = cell('automatic_payout_id');
  if (!payoutId) return rowInvalid(line, 'automatic_payout_id', 'EMPTY');
  const balanceTransactionId = cell('balance_transaction_id');
  if (!balanceTransactionId) return rowInvalid(line, 'balance_transaction_id', 'EMPTY');
  const effectiveAt = cell('automatic_payout_effective_at') ?? '';
  if (!STRIPE_DATE_TIME.test(effectiveAt))
    return rowInvalid(line, 'automatic_payout_effective_at', 'NOT_A_DATE');
  const category = cell('reporting_category');
  if (!category) return rowInvalid(line, 'reporting_category', 'EMPTY');
  const currency = cell('currency')?.toUpperCase() ?? '';
  if (!/^[A-Z]{3}$/.test(currency)) return rowInvalid(line, 'currency', 'NOT_A_CURRENCY');
  const exponent = currencyExponent(currency);
  const amounts: Record<'gross' | 'fee' | 'net', number> = { gross: 0, fee: 0, net: 0 };
  for (const column of ['gross', 'fee', 'net'] as const) {
    const value = minorUnits(cell(column) ?? '', exponent);
    if (value === null) return rowInvalid(line, column, 'NOT_AN_AMOUNT');
    amounts[column] = value;
  }
  if (amounts.gross - amounts.fee !== amounts.net) return rowInvalid(line, 'net', 'NET_NOT_GROSS_MINUS_FEE');
  const facingCurrency = cell('customer_facing_currency')?.toUpperCase() ?? null;
  const facingText = cell('customer_facing_amount');
  const facing =
    facingText === null ? null : minorUnits(facingText, currencyExponent(facingCurrency ?? currency));
  if (facingText !== null && facing === null)
    return rowInvalid(line, 'customer_facing_amount', 'NOT_AN_AMOUNT');
  return {
    ok: true,
    effectiveAt,
    row: {
      balanceTransactionId,
      payoutId,
      category,
      kind: KINDS[category] ?? 'other',
      currency,
      grossCents: amounts.gross,
      feeCents: amounts.fee,
      netCents: amounts.net,
      createdAt: cell('created'),
      availableOn: cell('available_on'),
      sourceId: cell('source_id'),
      chargeId: cell('charge_id'),
      paymentIntentId: cell('payment_intent_id'),
      description: cell('description'),
      customerFacingAmountCents: facing,
      customerFacingCurrency: facingCurrency,
      line,
    },
  };
}

/** The header's columns by name (case and spaces aside), or the required ones it lacks. */
export function stripeColumnsOf<C extends string>(
  header: readonly string[],
  headers: Record<C, readonly string[]>,
  required: readonly C[],
): { at: Partial<Record<C, number>>; missing: C[] } {
  const names = header.map((h) => h.trim().toLowerCase());
  const at: Partial<Record<C, number>> = {};
  for (const [column, candidates] of Object.entries(headers) as [C, readonly string[]][]) {
    const index = candidates.map((h) => names.indexOf(h)).find((i) => i >= 0);
    if (index !== undefined) at[column] = index;
  }
  return { at, missing: required.filter((column) => at[column] === undefined) };
}

const isBlank = (cells: readonly string[]) => cells.every((c) => c.trim() === '');

export interface StripeCsvRecord {
  cells: string[];
  line: number;
}

/**
 * A Stripe report's CSV → its header and the rows after it, blank lines dropped. A last line without its
 * line break may be a row cut anywhere: it is not read and the report is `incomplete` (a quote left open
 * by the cut drops what follows it too). Both of Stripe's reports read here are read this way.
 */
export function readStripeCsv(
  text: string,
): SourceRead<{ header: StripeCsvRecord; rows: StripeCsvRecord[]; incomplete: boolean }> {
  const incomplete = text !== '' && !/[\r\n]$/.test(text);
  const records: StripeCsvRecord[] = [];
  const summary = readCsvRows(text, ',', (cells, line) => records.push({ cells, line }));
  // The last line, without its line break, may be a row cut anywhere: it is not read.
  if (incomplete) records.pop();
  const openQuote = summary.unterminated[0];
  if (openQuote !== undefined && !incomplete) {
    return refused('STRIPE_REPORT_UNREADABLE', openQuote, { reason: 'UNTERMINATED_QUOTE' });
  }
  // A quote left open by the cut: what follows it was read as rows of its own, and is dropped too.
  const rows = records.filter((r) => !isBlank(r.cells) && (openQuote === undefined || r.line < openQuote));
  const header = rows.shift();
  if (!header) return refused('STRIPE_REPORT_UNREADABLE', 1, { reason: 'NO_HEADER' });
  return { ok: true, value: { header, rows, incomplete } };
}

/**
 * The report's text → its payouts, each the sum of its rows. Refused whole when the header lacks a
 * required column (all of them named), when a row cannot be read, repeats a balance transaction or
 * disagrees with its payout's date or currency, or when a payout's stated amount (a `payout` row of the
 * file, or `options.payoutAmounts`) is not the sum of its rows' net (both numbers given).
 */
export function readStripePayoutReport(
  text: string,
  options: StripeReportOptions = {},
): SourceRead<StripePayoutReport> {
  const csv = readStripeCsv(text);
  if (!csv.ok) return csv;
  const { header, rows, incomplete } = csv.value;
  const { at, missing } = stripeColumnsOf<Column>(header.cells, HEADERS, STRIPE_REQUIRED_COLUMNS);
  if (missing.length > 0) return refused('STRIPE_REPORT_COLUMNS_MISSING', header.line, { missing });
  if (rows.length === 0) return refused('STRIPE_REPORT_EMPTY', header.line);

  const payouts = new Map<string, StripePayout>();
  const stated = new Map(options.payoutAmounts ?? []);
  const seen = new Set<string>();
  for (const { cells, line } of rows) {
    if (cells.length !== header.cells.length) return rowInvalid(line, '', 'CELL_COUNT');
    const read = readRow(cells, at, line);
    if (!read.ok) return read;
    const { row, effectiveAt } = read;
    if (seen.has(row.balanceTransactionId)) return rowInvalid(line, 'balance_transaction_id', 'DUPLICATE');
    seen.add(row.balanceTransactionId);
    if (row.category === STRIPE_PAYOUT_CATEGORY) {
      // The payout's own balance transaction takes its amount out of the balance: −net is the payout.
      stated.set(row.sourceId ?? row.payoutId, -row.netCents);
      continue;
    }
    let payout = payouts.get(row.payoutId);
    if (!payout) {
      payout = {
        id: row.payoutId,
        effectiveAt,
        effectiveDate: effectiveAt.slice(0, 10),
        currency: row.currency,
        rows: [],
        grossCents: 0,
        feeCents: 0,
        netCents: 0,
        amountChecked: false,
        byKind: {},
      };
      payouts.set(row.payoutId, payout);
    }
    if (payout.currency !== row.currency) return rowInvalid(line, 'currency', 'DIFFERS_WITHIN_PAYOUT');
    if (payout.effectiveAt !== effectiveAt)
      return rowInvalid(line, 'automatic_payout_effective_at', 'DIFFERS_WITHIN_PAYOUT');
    payout.rows.push(row);
    payout.grossCents += row.grossCents;
    payout.feeCents += row.feeCents;
    payout.netCents += row.netCents;
    const kind = payout.byKind[row.kind] ?? { count: 0, netCents: 0 };
    payout.byKind[row.kind] = { count: kind.count + 1, netCents: kind.netCents + row.netCents };
  }
  for (const payout of payouts.values()) {
    payout.rows.sort((a, b) => (a.balanceTransactionId < b.balanceTransactionId ? -1 : 1));
    const amount = stated.get(payout.id);
    if (amount === undefined) continue;
    if (amount !== payout.netCents) {
      return refused('STRIPE_PAYOUT_SUM_MISMATCH', payout.rows[0]!.line, {
        payoutId: payout.id,
        payoutCents: amount,
        rowsNetCents: payout.netCents,
      });
    }
    payout.amountChecked = true;
  }
  const ordered = [...payouts.values()].sort((a, b) =>
    a.effectiveDate === b.effectiveDate ? (a.id < b.id ? -1 : 1) : a.effectiveDate < b.effectiveDate ? -1 : 1,
  );
  return { ok: true, value: { payouts: ordered, rowCount: seen.size, incomplete } };
}
