import { minorUnits } from './decimal-text';
import { refused, type SourceRead } from './refusal';
import {
  currencyExponent,
  readStripeCsv,
  STRIPE_DATE_TIME,
  STRIPE_PAYOUT_CATEGORY,
  stripeCells,
  stripeColumnsOf,
} from './stripe-payouts';

/**
 * Stripe's Balance report, its "Itemized payouts" download (`payouts.itemized.3`, newer `.5`): one row per
 * payout's own balance transaction — the payout's amount (what leaves the Stripe balance for the bank),
 * its expected arrival date and its status. The itemized payout reconciliation report (stripe-payouts.ts)
 * gives each payout's rows but not its amount; this file states it, so the import checks one against the
 * other whichever comes first (decision 0171). Columns and sources: tests/fixtures/sources/SOURCES.md.
 */

/** The columns without which a payout's stated amount, day and status cannot be read. */
export const STRIPE_BALANCE_PAYOUT_REQUIRED_COLUMNS = [
  'payout_id',
  'balance_transaction_id',
  'effective_at',
  'payout_expected_arrival_date',
  'payout_status',
  'reporting_category',
  'currency',
  'gross',
  'fee',
  'net',
] as const;

type Column =
  | (typeof STRIPE_BALANCE_PAYOUT_REQUIRED_COLUMNS)[number]
  | 'payout_type'
  | 'payout_description'
  | 'payout_reversed_at';

/** Each column the reader takes and the headers it may have: the requested timezone's or the UTC one. */
const HEADERS: Record<Column, readonly string[]> = {
  payout_id: ['payout_id'],
  balance_transaction_id: ['balance_transaction_id'],
  effective_at: ['effective_at', 'effective_at_utc'],
  payout_expected_arrival_date: ['payout_expected_arrival_date'],
  payout_status: ['payout_status'],
  reporting_category: ['reporting_category'],
  currency: ['currency'],
  gross: ['gross'],
  fee: ['fee'],
  net: ['net'],
  payout_type: ['payout_type'],
  payout_description: ['payout_description'],
  payout_reversed_at: ['payout_reversed_at_utc', 'payout_reversed_at'],
};

/** A payout's status as Stripe prints it; `failed` and `canceled` ones never reach the bank. */
export const STRIPE_PAYOUT_STATUSES = ['paid', 'pending', 'in_transit', 'canceled', 'failed'] as const;
export type StripePayoutStatus = (typeof STRIPE_PAYOUT_STATUSES)[number];

/** No bank credit is due for a payout in these states: its funds went back to the Stripe balance. */
export const isPayoutWithdrawn = (status: StripePayoutStatus): boolean =>
  status === 'failed' || status === 'canceled';

export interface StripeStatedPayout {
  id: string;
  /** The payout's own balance transaction (`txn_…`). */
  balanceTransactionId: string;
  /** `effective_at` as printed and its day: when the funds leave the Stripe balance. */
  effectiveAt: string;
  effectiveDate: string;
  /** `payout_expected_arrival_date`'s day: when the bank should be paid. */
  expectedArrivalDate: string;
  status: StripePayoutStatus;
  /** `bank_account` or `card`, when the report has the column. */
  type: string | null;
  /** ISO 4217, upper case. */
  currency: string;
  /**
   * What the payout pays the bank, in minor units: minus the `net` of its balance transaction, which takes
   * the amount out of the Stripe balance (the itemized reader reads its own `payout` rows the same way).
   */
  amountCents: number;
  description: string | null;
  /** When a failed or canceled payout entered that status, as printed. */
  reversedAt: string | null;
  line: number;
}

export interface StripeBalancePayoutReport {
  /** By effective date, then id. */
  payouts: StripeStatedPayout[];
  /**
   * Rows of other categories (a failed payout's `payout_reversal`, minimum-balance holds, …): read and
   * counted, never a payout's amount — a payout's status says whether it failed.
   */
  otherRows: number;
  /** The last line had no line break and was not read (stripe-payouts.ts, `readStripeCsv`). */
  incomplete: boolean;
}

const rowInvalid = (line: number, column: string, reason: string) =>
  refused('STRIPE_REPORT_ROW_INVALID', line, { column, reason });

const isStatus = (value: string): value is StripePayoutStatus =>
  (STRIPE_PAYOUT_STATUSES as readonly string[]).includes(value);

/**
 * The Itemized payouts report's text → each payout's stated amount, arrival date and status. Refused whole
 * when the header lacks a required column (all of them named), when a row cannot be read, or when a payout
 * or a balance transaction appears twice.
 */
export function readStripeBalancePayouts(text: string): SourceRead<StripeBalancePayoutReport> {
  const csv = readStripeCsv(text);
  if (!csv.ok) return csv;
  const { header, rows, incomplete } = csv.value;
  const { at, missing } = stripeColumnsOf<Column>(
    header.cells,
    HEADERS,
    STRIPE_BALANCE_PAYOUT_REQUIRED_COLUMNS,
  );
  if (missing.length > 0) return refused('STRIPE_REPORT_COLUMNS_MISSING', header.line, { missing });
  if (rows.length === 0) return refused('STRIPE_REPORT_EMPTY', header.line);

  const payouts = new Map<string, StripeStatedPayout>();
  const transactions = new Set<string>();
  let otherRows = 0;
  for (const { cells, line } of rows) {
    if (cells.length !== header.cells.length) return rowInvalid(line, '', 'CELL_COUNT');
    const cell = stripeCells<Column>(cells, at);
    const id = cell('payout_id');
    if (!id) return rowInvalid(line, 'payout_id', 'EMPTY');
    const balanceTransactionId = cell('balance_transaction_id');
    if (!balanceTransactionId) return rowInvalid(line, 'balance_transaction_id', 'EMPTY');
    if (transactions.has(balanceTransactionId))
      return rowInvalid(line, 'balance_transaction_id', 'DUPLICATE');
    transactions.add(balanceTransactionId);
    const category = cell('reporting_category');
    if (!category) return rowInvalid(line, 'reporting_category', 'EMPTY');
    if (category !== STRIPE_PAYOUT_CATEGORY) {
      otherRows++;
      continue;
    }
    if (payouts.has(id)) return rowInvalid(line, 'payout_id', 'DUPLICATE');
    const effectiveAt = cell('effective_at') ?? '';
    if (!STRIPE_DATE_TIME.test(effectiveAt)) return rowInvalid(line, 'effective_at', 'NOT_A_DATE');
    const arrival = cell('payout_expected_arrival_date') ?? '';
    if (!STRIPE_DATE_TIME.test(arrival))
      return rowInvalid(line, 'payout_expected_arrival_date', 'NOT_A_DATE');
    const status = cell('payout_status') ?? '';
    if (!isStatus(status)) return rowInvalid(line, 'payout_status', 'NOT_A_STATUS');
    const currency = cell('currency')?.toUpperCase() ?? '';
    if (!/^[A-Z]{3}$/.test(currency)) return rowInvalid(line, 'currency', 'NOT_A_CURRENCY');
    const exponent = currencyExponent(currency);
    const amounts = { gross: 0, fee: 0, net: 0 };
    for (const column of ['gross', 'fee', 'net'] as const) {
      const value = minorUnits(cell(column) ?? '', exponent);
      if (value === null) return rowInvalid(line, column, 'NOT_AN_AMOUNT');
      amounts[column] = value;
    }
    if (amounts.gross - amounts.fee !== amounts.net)
      return rowInvalid(line, 'net', 'NET_NOT_GROSS_MINUS_FEE');
    payouts.set(id, {
      id,
      balanceTransactionId,
      effectiveAt,
      effectiveDate: effectiveAt.slice(0, 10),
      expectedArrivalDate: arrival.slice(0, 10),
      status,
      type: cell('payout_type'),
      currency,
      // 0 − net, not −net: a zero net is a zero amount, never −0.
      amountCents: 0 - amounts.net,
      description: cell('payout_description'),
      reversedAt: cell('payout_reversed_at'),
      line,
    });
  }
  // Only other categories: nothing in the file states a payout.
  if (payouts.size === 0) return refused('STRIPE_REPORT_EMPTY', header.line);
  const ordered = [...payouts.values()].sort((a, b) =>
    a.effectiveDate === b.effectiveDate ? (a.id < b.id ? -1 : 1) : a.effectiveDate < b.effectiveDate ? -1 : 1,
  );
  return { ok: true, value: { payouts: ordered, otherRows, incomplete } };
}
