import { z } from 'zod';
import { CASE_STATUSES } from '../domain/case-status';

const count = z.number().int().min(0);
const cents = z.number().int();
/** A count with the money it holds (cents, EUR). */
const countAndCents = z.object({ count, amountCents: cents });

/** What needs an operator now: each counter links to the list it counts. */
export const dashboardAttentionSchema = z.object({
  /** Professionals with a verified e-mail waiting for their verification (users status EMAIL_VERIFIED). */
  professionalsToVerify: count,
  professionalsDisabled: count,
  casesWaitingPayment: count,
  /** READY_TO_SETTLE or AVAILABLE settlements and their payable total. */
  settlementsToProcess: countAndCents,
  /** SEPA files generated or handed to the bank and not yet paid (GENERATED, AVAILABLE). */
  sepaFilesAwaitingBank: countAndCents,
  /**
   * Returns on a bank statement not yet matched or ignored (UNMATCHED, SUGGESTED, DISCREPANCY) and the
   * money they give back: the statement lines list of those returns totals them (decision 0143).
   */
  returnsToMatch: countAndCents,
  /**
   * Doctors whose payouts are blocked now: a block (decision 0070) still holding at their current IBAN,
   * whether a bank's status report or a matched return made it. Each counted once, as the list of
   * blocked doctors (`GET /v2/admin/professionals/payout-blocked`) counts them (decision 0143).
   */
  doctorsPayoutsBlocked: count,
  /**
   * Settlements (cases or subscriptions the customer paid) no invoice of the invoicing program bills, and
   * their gross: the settlements list with `customerInvoiced=false` (decision 0155).
   */
  settlementsNotInvoiced: countAndCents,
  /**
   * Invoices that bill no settlement and that no bank line pays: the provider documents' list of invoices
   * with `matched=false` (decision 0155).
   */
  invoicesWithoutPaidSettlement: countAndCents,
  /** Bank statement lines still UNMATCHED and their signed sum. */
  statementLinesUnmatched: countAndCents,
  /**
   * The viewing admin's export jobs that failed, still kept (a job's row is deleted 14 days after it was
   * asked for): an admin sees only their own exports (decision 0077), `GET /v2/admin/exports?status=failed`.
   */
  exportsFailed: count,
  /**
   * The month's automation rate (issue 32, decision 0147): of the statement lines imported this Lisbon
   * month (`imported`), those MATCHED without a decision taken line by line (`automated`): matched by the
   * import's matcher and not touched since, or accepted by `Shift+a` over a "score ≥ x" filter. The card
   * opens those lines, `GET /v2/admin/statements/lines?automatedMonth=<month>`, whose total is `automated`.
   */
  statementAutomation: z.object({
    month: z.string().regex(/^\d{4}-\d{2}$/),
    imported: count,
    automated: count,
  }),
});

/** Series over a calendar axis: one value per axis point, zeros included, oldest first. */
export const dashboardTrendsSchema = z.object({
  /** The last 90 Lisbon days, today included; cases created each day, by their current status. */
  casesPerDay: z.object({
    days: z.array(z.iso.date()),
    byStatus: z.array(z.object({ status: z.enum(CASE_STATUSES), counts: z.array(count) })),
  }),
  /** The last 12 reference months: the platform's fee and the doctors' net of settled revenue. */
  revenuePerMonth: z.object({
    months: z.array(z.string()),
    feeCents: z.array(cents),
    netCents: z.array(cents),
  }),
  /** The last 12 months by execution date: money transferred to doctors in paid SEPA files. */
  payoutsPerMonth: z.object({
    months: z.array(z.string()),
    amountCents: z.array(cents),
    transfers: z.array(count),
  }),
  /** The last 26 ISO weeks (Monday, Lisbon): new patients and new doctors. */
  signupsPerWeek: z.object({
    weeks: z.array(z.iso.date()),
    customers: z.array(count),
    professionals: z.array(count),
  }),
});

export const dashboardSchema = z.object({
  /** The instant the numbers were read. */
  asOf: z.iso.datetime(),
  today: z.iso.date(),
  currency: z.literal('EUR'),
  attention: dashboardAttentionSchema,
  trends: dashboardTrendsSchema,
});
