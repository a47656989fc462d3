import type { z } from 'zod';
import type {
  dashboardAttentionSchema,
  dashboardSchema,
  dashboardTrendsSchema,
} from '../../contract/dashboard';
import { todayInLisbon } from '../../domain/business-days';
import { CASE_STATUSES, type CaseStatus } from '../../domain/case-status';
import type { Queryable } from '../db/client';
import { daysEndingWith, monthsEndingWith, onAxis, weeksEndingWith } from './calendar';

export type Dashboard = z.infer<typeof dashboardSchema>;
type Attention = z.infer<typeof dashboardAttentionSchema>;
type Trends = z.infer<typeof dashboardTrendsSchema>;

export const TREND_DAYS = 90;
export const TREND_MONTHS = 12;
export const TREND_WEEKS = 26;

/**
 * `GET /v2/admin/dashboard`: what needs attention now and how the business moves. Counters of a status
 * read the status indexes; the trends and the settlements' totals read the per-day and per-month tables
 * the triggers of migration 0020 keep exact (docs/decisions/0078), the statement lines' the per-kind and
 * per-status totals of migration 0039 (docs/decisions/0138: 660,000 unmatched lines were summed per call),
 * the settlements never invoiced and the invoices with no paid settlement migration 0046's totals, kept
 * to the rules of server/db/provider-sides.ts (docs/decisions/0155: every settlement and invoice was read).
 */
export async function readDashboard(db: Queryable, now: Date, adminId: string): Promise<Dashboard> {
  const today = todayInLisbon(now);
  const [attention, automation, trends] = await Promise.all([
    readAttention(db, adminId),
    readAutomation(db, today.slice(0, 7)),
    readTrends(db, today),
  ]);
  return {
    asOf: now.toISOString(),
    today,
    currency: 'EUR',
    attention: { ...attention, statementAutomation: automation },
    trends,
  };
}

/**
 * The month's automation rate (decision 0147): the lines of the statements imported this Lisbon month,
 * and those of them MATCHED without a decision taken line by line — by the import's matcher and untouched
 * since, or by `Shift+a` over a "score ≥ x" filter (its audit row names the filter). The same condition as
 * the lines list's `automatedMonth` filter (server/statements/lines.ts, `automatedFilter`), which the card
 * opens; this area may not import that one, and tests/api/dashboard.test.ts fails if they disagree.
 */
async function readAutomation(db: Queryable, month: string): Promise<Attention['statementAutomation']> {
  const { rows } = await db.query<{ imported: number; automated: number }>(
    `WITH bounds AS (
       SELECT ($1::date::timestamp AT TIME ZONE 'Europe/Lisbon') AS start,
              (($1::date + interval '1 month')::timestamp AT TIME ZONE 'Europe/Lisbon') AS stop),
     files AS (
       SELECT f.id FROM statement_files f, bounds WHERE f.imported_at >= bounds.start AND f.imported_at < bounds.stop),
     filter_accepts AS (
       SELECT (a.after->>'actionId')::uuid AS id FROM audit_log a, bounds
        WHERE a.action = 'statement.bulk-accept' AND a.after ? 'filter' AND a.created_at >= bounds.start)
     SELECT
       -- the files' line counts kept by migration 0034's triggers, not a count of a month's lines
       (SELECT coalesce(sum(c.lines), 0) FROM statement_file_line_counts c
         WHERE c.statement_file_id IN (SELECT id FROM files))::int AS imported,
       (SELECT count(*) FROM statement_lines l
         WHERE l.statement_file_id IN (SELECT id FROM files) AND l.status = 'MATCHED'
           AND l.match_method IN ('REFERENCE', 'AMOUNT_COUNTERPARTY_DATE')
           AND (l.last_action_id IS NULL OR l.last_action_id IN (SELECT id FROM filter_accepts)))::int AS automated`,
    [`${month}-01`],
  );
  return { month, imported: rows[0]!.imported, automated: rows[0]!.automated };
}

/** `adminId`: the viewing admin, whose own failed exports are counted (an admin sees only theirs). */
async function readAttention(
  db: Queryable,
  adminId: string,
): Promise<Omit<Attention, 'statementAutomation'>> {
  const { rows } = await db.query<Record<string, string | number>>(
    `SELECT
       (SELECT count(*) FROM users WHERE role = 'PROFESSIONAL' AND status = 'EMAIL_VERIFIED')::int AS to_verify,
       (SELECT count(*) FROM users WHERE role = 'PROFESSIONAL' AND status = 'DISABLED')::int AS disabled,
       (SELECT count(*) FROM cases WHERE status = 'WAITING_PAYMENT')::int AS waiting_payment,
       s.n AS settlements, s.cents::text AS settlements_cents,
       f.n AS sepa_files, f.cents::text AS sepa_cents,
       r.n AS returns_to_match, r.cents::text AS returns_to_match_cents,
       (SELECT count(DISTINCT b.professional_id) FROM payout_blocks b JOIN users p ON p.id = b.professional_id
         WHERE b.blocked_iban = upper(regexp_replace(coalesce(p.iban, ''), '[- ]', '', 'g')))::int AS payouts_blocked,
       l.n AS unmatched, l.cents::text AS unmatched_cents,
       ni.n AS not_invoiced, ni.cents::text AS not_invoiced_cents,
       ui.n AS unpaid_invoices, ui.cents::text AS unpaid_invoices_cents,
       (SELECT count(*) FROM export_jobs WHERE status = 'failed' AND requested_by = $1::uuid)::int AS exports_failed
     FROM (SELECT coalesce(sum(settlements), 0)::int AS n, coalesce(sum(payable_cents), 0) AS cents
             FROM dashboard_settlement_months WHERE status IN ('READY_TO_SETTLE', 'AVAILABLE')) s,
          (SELECT count(*)::int AS n, coalesce(sum(amount_cents), 0) AS cents
             FROM sepa_files WHERE status IN ('GENERATED', 'AVAILABLE')) f,
          (SELECT coalesce(sum(lines), 0)::int AS n, coalesce(sum(amount_cents), 0) AS cents
             FROM statement_line_totals WHERE kind = 'return' AND status IN ('UNMATCHED', 'SUGGESTED', 'DISCREPANCY')) r,
          (SELECT coalesce(sum(lines), 0)::int AS n, coalesce(sum(amount_cents), 0) AS cents
             FROM statement_line_totals WHERE status = 'UNMATCHED') l,
          (SELECT coalesce(sum(items), 0)::int AS n, coalesce(sum(amount_cents), 0) AS cents
             FROM provider_side_totals WHERE side = 'SETTLEMENT_NOT_INVOICED') ni,
          (SELECT coalesce(sum(items), 0)::int AS n, coalesce(sum(amount_cents), 0) AS cents
             FROM provider_side_totals WHERE side = 'INVOICE_WITHOUT_SETTLEMENT') ui`,
    [adminId],
  );
  const row = rows[0]!;
  const pair = (n: string, cents: string) => ({ count: Number(row[n]), amountCents: Number(row[cents]) });
  return {
    professionalsToVerify: Number(row.to_verify),
    professionalsDisabled: Number(row.disabled),
    casesWaitingPayment: Number(row.waiting_payment),
    settlementsToProcess: pair('settlements', 'settlements_cents'),
    sepaFilesAwaitingBank: pair('sepa_files', 'sepa_cents'),
    returnsToMatch: pair('returns_to_match', 'returns_to_match_cents'),
    doctorsPayoutsBlocked: Number(row.payouts_blocked),
    statementLinesUnmatched: pair('unmatched', 'unmatched_cents'),
    settlementsNotInvoiced: pair('not_invoiced', 'not_invoiced_cents'),
    invoicesWithoutPaidSettlement: pair('unpaid_invoices', 'unpaid_invoices_cents'),
    exportsFailed: Number(row.exports_failed),
  };
}

async function readTrends(db: Queryable, today: string): Promise<Trends> {
  const days = daysEndingWith(today, TREND_DAYS);
  const months = monthsEndingWith(today, TREND_MONTHS);
  const weeks = weeksEndingWith(today, TREND_WEEKS);
  const [cases, revenue, payouts, signups] = await Promise.all([
    db.query<{ day: string; status: CaseStatus; n: number }>(
      `SELECT day::text AS day, status, cases AS n
         FROM dashboard_case_days WHERE day BETWEEN $1::date AND $2::date AND cases <> 0`,
      [days[0], today],
    ),
    db.query<{ month: string; fee: string; net: string }>(
      `SELECT reference_month AS month, sum(fee_cents)::text AS fee, sum(net_cents)::text AS net
         FROM dashboard_settlement_months
        WHERE reference_month BETWEEN $1 AND $2 AND status NOT IN ('REFUNDED', 'REFUNDED_PAID')
        GROUP BY 1`,
      [months[0], months.at(-1)],
    ),
    db.query<{ month: string; cents: string; transfers: number }>(
      `SELECT to_char(execution_date, 'YYYY-MM') AS month, sum(amount_cents)::text AS cents,
              sum(transaction_count)::int AS transfers
         FROM sepa_files WHERE status = 'PAID' AND execution_date >= $1::date AND execution_date <= $2::date
        GROUP BY 1`,
      [`${months[0]}-01`, today],
    ),
    db.query<{ week: string; role: string; n: number }>(
      `SELECT date_trunc('week', day)::date::text AS week, role, sum(users)::int AS n
         FROM dashboard_signup_days
        WHERE role IN ('CUSTOMER', 'PROFESSIONAL') AND day BETWEEN $1::date AND $2::date
        GROUP BY 1, 2`,
      [weeks[0], today],
    ),
  ]);
  const keyed = <R>(rows: R[], key: (row: R) => string, value: (row: R) => number) =>
    new Map(rows.map((row) => [key(row), value(row)]));
  return {
    casesPerDay: {
      days,
      byStatus: CASE_STATUSES.map((status) => ({
        status,
        counts: onAxis(
          days,
          keyed(
            cases.rows.filter((row) => row.status === status),
            (row) => row.day,
            (row) => row.n,
          ),
        ),
      })),
    },
    revenuePerMonth: {
      months,
      feeCents: onAxis(
        months,
        keyed(
          revenue.rows,
          (r) => r.month,
          (r) => Number(r.fee),
        ),
      ),
      netCents: onAxis(
        months,
        keyed(
          revenue.rows,
          (r) => r.month,
          (r) => Number(r.net),
        ),
      ),
    },
    payoutsPerMonth: {
      months,
      amountCents: onAxis(
        months,
        keyed(
          payouts.rows,
          (r) => r.month,
          (r) => Number(r.cents),
        ),
      ),
      transfers: onAxis(
        months,
        keyed(
          payouts.rows,
          (r) => r.month,
          (r) => r.transfers,
        ),
      ),
    },
    signupsPerWeek: {
      weeks,
      customers: onAxis(
        weeks,
        keyed(
          signups.rows.filter((r) => r.role === 'CUSTOMER'),
          (r) => r.week,
          (r) => r.n,
        ),
      ),
      professionals: onAxis(
        weeks,
        keyed(
          signups.rows.filter((r) => r.role === 'PROFESSIONAL'),
          (r) => r.week,
          (r) => r.n,
        ),
      ),
    },
  };
}
