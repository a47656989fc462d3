import type { SaftInvoiceStatus } from '../../../domain/sources/saft-pt';
import type { SourceKind } from '../../../domain/sources/source-ids';
import type { StripePayoutStatus } from '../../../domain/sources/stripe-balance-payouts';
import type { StripeRowKind } from '../../../domain/sources/stripe-payouts';

/** The screen's words for the values the files hold, by value (every one a key of locales/sources.*.json). */

/** What a Stripe reporting category means for reconciliation: refunds, disputes and fees shown as such. */
export const ROW_KIND_WORDS: Record<StripeRowKind, string> = {
  charge: 'sources.rowKind.charge',
  refund: 'sources.rowKind.refund',
  dispute: 'sources.rowKind.dispute',
  fee: 'sources.rowKind.fee',
  other: 'sources.rowKind.other',
};

/** A Stripe payout's status; failed and canceled ones say no bank credit is due. */
export const PAYOUT_STATUS_WORDS: Record<StripePayoutStatus, string> = {
  paid: 'sources.payoutStatus.paid',
  pending: 'sources.payoutStatus.pending',
  in_transit: 'sources.payoutStatus.in_transit',
  canceled: 'sources.payoutStatus.canceled',
  failed: 'sources.payoutStatus.failed',
};

/** A document's `InvoiceStatus` (cancelled ones, A, are listed apart). */
export const STATUS_WORDS: Record<Exclude<SaftInvoiceStatus, 'A'>, string> = {
  N: 'sources.status.N',
  S: 'sources.status.S',
  R: 'sources.status.R',
  F: 'sources.status.F',
};

/** The kinds the admin picks among, and letting the bytes decide. */
export const KIND_CHOICES: Record<SourceKind | 'AUTO', string> = {
  AUTO: 'sources.kinds.AUTO',
  STRIPE_PAYOUTS: 'sources.kinds.STRIPE_PAYOUTS',
  STRIPE_BALANCE_PAYOUTS: 'sources.kinds.STRIPE_BALANCE_PAYOUTS',
  COLLECTOR_PAYOUTS: 'sources.kinds.COLLECTOR_PAYOUTS',
  SAFT_INVOICES: 'sources.kinds.SAFT_INVOICES',
};

/** A kind in a sentence or a list's cell. */
export const KIND_SHORT: Record<SourceKind, string> = {
  STRIPE_PAYOUTS: 'sources.kindShort.STRIPE_PAYOUTS',
  STRIPE_BALANCE_PAYOUTS: 'sources.kindShort.STRIPE_BALANCE_PAYOUTS',
  COLLECTOR_PAYOUTS: 'sources.kindShort.COLLECTOR_PAYOUTS',
  SAFT_INVOICES: 'sources.kindShort.SAFT_INVOICES',
};
