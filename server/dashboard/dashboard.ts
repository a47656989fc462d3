import type { z } from 'zod';
import type {
  dashboardAttentionSchema,
  dashboardSchema,
  dashboardTrendsSchema,
} from '../../contract/dashboard';
import { addDays, todayInLisbon } from '../../domain/business-days';
import { CASE_STATUSES, type CaseStatus } from '../../domain/case-status';
import type { Queryable } from '../db/client';
import { daysEndingWith, monthsEndingWith, onAxis, weeksEndingWith } from './calendar';

export type Dashboard = z.infer<typeof dashboardSchema>;
type Attention = z.infer<typeof dashboardAttentionSchema>;
type Trends = z.infer<typeof dashboardTrendsSchema>;

export const TREND_DAYS = 90;
export const TREND_MONTHS = 12;
export const TREND_WEEKS = 26;

/** The instant a Lisbon calendar day starts, as SQL over parameter `$n`. */
const lisbonStart = (n: number) => `($${n}::date::timestamp AT TIME ZONE 'Europe/Lisbon')`;

/**
 * `GET /v2/admin/dashboard`: what needs attention now and how the business moves, read straight from
 * the tables through their indexes (docs/decisions/0078 says why nothing is pre-aggregated).
 */
export async function readDashboard(db: Queryable, now: Date): Promise<Dashboard> {
  const today = todayInLisbon(now);
  const [attention, trends] = await Promise.all([readAttention(db), readTrends(db, today)]);
  return { asOf: now.toISOString(), today, currency: 'EUR', attention, trends };
}

async function readAttention(db: Queryable): Promise<Attention> {
  const { rows } = await db.query<Record<string, string | number>>(
    `SELECT
       (SELECT count(*) FROM users WHERE role = 'PROFESSIONAL' AND status = 'EMAIL_VERIFIED')::int AS to_verify,
       (SELECT count(*) FROM users WHERE role = 'PROFESSIONAL' AND status = 'DISABLED')::int AS disabled,
       (SELECT count(*) FROM cases WHERE status = 'WAITING_PAYMENT')::int AS waiting_payment,
       s.n AS settlements, s.cents::text AS settlements_cents,
       f.n AS sepa_files, f.cents::text AS sepa_cents,
       r.n AS returned, r.cents::text AS returned_cents,
       l.n AS unmatched, l.cents::text AS unmatched_cents
     FROM (SELECT count(*)::int AS n, coalesce(sum(coalesce(adjusted_cents, net_cents)), 0) AS cents
             FROM settlements WHERE status IN ('READY_TO_SETTLE', 'AVAILABLE')) s,
          (SELECT count(*)::int AS n, coalesce(sum(amount_cents), 0) AS cents
             FROM sepa_files WHERE status IN ('GENERATED', 'AVAILABLE')) f,
          (SELECT count(*)::int AS n, coalesce(sum(bank_amount_cents), 0) AS cents
             FROM statement_lines WHERE kind = 'return' AND status IN ('UNMATCHED', 'SUGGESTED', 'DISCREPANCY')) r,
          (SELECT count(*)::int AS n, coalesce(sum(bank_amount_cents), 0) AS cents
             FROM statement_lines WHERE status = 'UNMATCHED') l`,
  );
  const row = rows[0]!;
  const pair = (n: string, cents: string) => ({ count: Number(row[n]), amountCents: Number(row[cents]) });
  return {
    professionalsToVerify: Number(row.to_verify),
    professionalsDisabled: Number(row.disabled),
    casesWaitingPayment: Number(row.waiting_payment),
    settlementsToProcess: pair('settlements', 'settlements_cents'),
    sepaFilesAwaitingBank: pair('sepa_files', 'sepa_cents'),
    transfersReturned: pair('returned', 'returned_cents'),
    statementLinesUnmatched: pair('unmatched', 'unmatched_cents'),
    // Exports are not recorded as jobs with a status yet (issue 13 part 1): nothing to count.
    exportsFailed: null,
  };
}

async function readTrends(db: Queryable, today: string): Promise<Trends> {
  const days = daysEndingWith(today, TREND_DAYS);
  const months = monthsEndingWith(today, TREND_MONTHS);
  const weeks = weeksEndingWith(today, TREND_WEEKS);
  const [cases, revenue, payouts, signups] = await Promise.all([
    db.query<{ day: string; status: CaseStatus; n: number }>(
      `SELECT (created_at AT TIME ZONE 'Europe/Lisbon')::date::text AS day, status, count(*)::int AS n
         FROM cases WHERE created_at >= ${lisbonStart(1)} AND created_at < ${lisbonStart(2)}
        GROUP BY 1, 2`,
      [days[0], addDays(today, 1)],
    ),
    db.query<{ month: string; fee: string; net: string }>(
      `SELECT reference_month AS month, sum(fee_cents)::text AS fee, sum(net_cents)::text AS net
         FROM settlements
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
      `SELECT date_trunc('week', created_at AT TIME ZONE 'Europe/Lisbon')::date::text AS week, role, count(*)::int AS n
         FROM users
        WHERE role IN ('CUSTOMER', 'PROFESSIONAL') AND created_at >= ${lisbonStart(1)} AND created_at < ${lisbonStart(2)}
        GROUP BY 1, 2`,
      [weeks[0], addDays(today, 1)],
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
