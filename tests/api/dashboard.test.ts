import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../support/databases';
import { type CaseWorld, SEED_NOW, startCaseWorld } from './cases-support';

interface Dashboard {
  today: string;
  attention: {
    professionalsToVerify: number;
    professionalsDisabled: number;
    casesWaitingPayment: number;
    settlementsToProcess: { count: number; amountCents: number };
    sepaFilesAwaitingBank: { count: number; amountCents: number };
    transfersRejectedOrReturned: { count: number; amountCents: number };
    statementLinesUnmatched: { count: number; amountCents: number };
    exportsFailed: number;
  };
  trends: {
    casesPerDay: { days: string[]; byStatus: { status: string; counts: number[] }[] };
    revenuePerMonth: { months: string[]; feeCents: number[]; netCents: number[] };
    payoutsPerMonth: { months: string[]; amountCents: number[]; transfers: number[] };
    signupsPerWeek: { weeks: string[]; customers: number[]; professionals: number[] };
  };
}

// Lisbon calendar days of instants, computed by Intl here rather than by the server's SQL.
const lisbonDay = (instant: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(instant);
const shift = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const mondayOf = (day: string) => shift(day, -((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7));

describe.each(testDatabaseKinds())('dashboard API on $name', (kind) => {
  let world: CaseWorld;
  let dashboard: Dashboard;
  beforeAll(async () => {
    world = await startCaseWorld(kind);
    world.clock.current = SEED_NOW;
  }, 180_000);
  afterAll(async () => world?.stop());

  /**
   * Changes of every kind the pre-aggregated counts follow (migration 0020's triggers): a case closed
   * through the API (its status moves), a settlement's status and amount changed and another deleted,
   * a patient signing up today and a doctor removed, exports that failed or were cancelled.
   */
  async function change(): Promise<void> {
    await world.db.query(
      `INSERT INTO export_jobs (requested_by, type, filters, format, locale, status, estimated_total,
                               error_reason, created_at, finished_at, expires_at)
       SELECT u.id, 'CASES', '{}', 'CSV', 'pt-PT', s.status, 10, s.reason, $1, $1, $1::timestamptz + interval '7 days'
         FROM (SELECT id FROM users WHERE role = 'ADMIN' LIMIT 1) u,
              (VALUES ('failed', 'INSTANCE_STOPPED'), ('failed', 'EXPORT_FAILED'), ('cancelled', NULL)) s (status, reason)`,
      [SEED_NOW],
    );
    const open = await world.db.query<{ id: string }>(
      `SELECT id FROM cases WHERE status = 'WAITING_PAYMENT' ORDER BY id LIMIT 1`,
    );
    const closed = await world.post(`/v2/admin/cases/${open.rows[0]!.id}/close`);
    expect(closed.status).toBe(200);
    await world.db.query(
      `UPDATE settlements SET status = 'AVAILABLE', adjusted_cents = 1, adjustment_note = 'test'
        WHERE id = (SELECT id FROM settlements WHERE status = 'READY_TO_SETTLE' ORDER BY id LIMIT 1)`,
    );
    await world.db.query(
      `DELETE FROM settlements WHERE id = (SELECT id FROM settlements s WHERE status = 'AVAILABLE' AND adjusted_cents IS NULL
          AND NOT EXISTS (SELECT 1 FROM sepa_transaction_settlements t WHERE t.settlement_id = s.id) ORDER BY id LIMIT 1)`,
    );
    await world.db.query(
      `INSERT INTO users (role, email, name, created_at) VALUES ('CUSTOMER', 'new-today@example.com', 'Nova', $1)`,
      [new Date(SEED_NOW.getTime() - 60_000)],
    );
    // The bank rejects one transfer: the doctor's payouts are blocked at their current IBAN.
    await world.db.query(
      `WITH rejected AS (
         UPDATE sepa_transactions SET status = 'REJECTED', rejection_reason_code = 'AC04', rejected_at = $1
          WHERE id = (SELECT id FROM sepa_transactions ORDER BY id LIMIT 1) RETURNING id, professional_id)
       INSERT INTO payout_blocks (professional_id, blocked_iban, reason_code, sepa_transaction_id)
       SELECT r.professional_id, upper(replace(u.iban, ' ', '')), 'AC04', r.id FROM rejected r JOIN users u ON u.id = r.professional_id`,
      [SEED_NOW],
    );
    // A statement line ignored through the reconciliation's route, and another become a return: the
    // statement-line cards read totals kept per kind and status (migration 0039) that must follow both.
    const lines = await world.db.query<{ id: string }>(
      `SELECT id FROM statement_lines WHERE status = 'UNMATCHED' ORDER BY id LIMIT 2`,
    );
    const ignored = await fetch(`${world.url}/v2/admin/statements/lines/${lines.rows[0]!.id}/ignore`, {
      method: 'POST',
      headers: { authorization: `Bearer ${world.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ note: 'bank fee' }),
    });
    expect(ignored.status).toBe(200);
    await world.db.query(
      `UPDATE statement_lines SET kind = 'return', bank_amount_cents = 777 WHERE id = $1`,
      [lines.rows[1]!.id],
    );
    await world.db.query(
      `UPDATE users SET created_at = created_at - interval '3 days'
        WHERE id = (SELECT id FROM users WHERE role = 'PROFESSIONAL' ORDER BY created_at DESC LIMIT 1)`,
    );
  }

  const one = async (sql: string) => Number((await world.db.query<{ n: string }>(sql)).rows[0]!.n);

  for (const phase of ['as seeded', 'after changes'] as const)
    describe(phase, () => {
      beforeAll(async () => {
        if (phase === 'after changes') await change();
        const response = await world.get('/v2/admin/dashboard');
        expect(response.status).toBe(200);
        dashboard = (await response.json()) as Dashboard;
      }, 60_000);

      it('counts what needs attention as independent SQL does', async () => {
        const a = dashboard.attention;
        // Written from the flags, not from the generated status column the server reads.
        expect(a.professionalsToVerify).toBe(
          await one(`SELECT count(*) AS n FROM users WHERE role = 'PROFESSIONAL' AND email_verified
                   AND NOT professional_verified AND NOT disabled`),
        );
        expect(a.professionalsDisabled).toBe(
          await one(`SELECT count(*) AS n FROM users WHERE role = 'PROFESSIONAL' AND disabled`),
        );
        expect(a.casesWaitingPayment).toBe(
          await one(`SELECT count(*) AS n FROM cases WHERE status = 'WAITING_PAYMENT'`),
        );
        const toProcess = await world.db.query<{
          status: string;
          adjusted_cents: number | null;
          net_cents: number;
        }>('SELECT status, adjusted_cents, net_cents FROM settlements');
        const open = toProcess.rows.filter((s) => s.status === 'READY_TO_SETTLE' || s.status === 'AVAILABLE');
        expect(a.settlementsToProcess).toEqual({
          count: open.length,
          amountCents: open.reduce((sum, s) => sum + (s.adjusted_cents ?? s.net_cents), 0),
        });
        const files = (
          await world.db.query<{ status: string; amount_cents: string }>(
            'SELECT status, amount_cents FROM sepa_files',
          )
        ).rows.filter((f) => f.status === 'GENERATED' || f.status === 'AVAILABLE');
        expect(a.sepaFilesAwaitingBank).toEqual({
          count: files.length,
          amountCents: files.reduce((sum, f) => sum + Number(f.amount_cents), 0),
        });
        const lines = (
          await world.db.query<{ status: string; kind: string; bank_amount_cents: string }>(
            'SELECT status, kind, bank_amount_cents FROM statement_lines',
          )
        ).rows;
        const unmatched = lines.filter((l) => l.status === 'UNMATCHED');
        expect(a.statementLinesUnmatched).toEqual({
          count: unmatched.length,
          amountCents: unmatched.reduce((sum, l) => sum + Number(l.bank_amount_cents), 0),
        });
        const returned = lines.filter(
          (l) => l.kind === 'return' && !['MATCHED', 'IGNORED'].includes(l.status),
        );
        // Rejected transfers whose block still holds: the doctor's IBAN now, spaces and dashes out, upper case.
        const rejected = (
          await world.db.query<{ amount_cents: string; iban: string | null; blocked: string[] }>(
            `SELECT t.amount_cents, p.iban,
                    array(SELECT b.blocked_iban FROM payout_blocks b WHERE b.sepa_transaction_id = t.id) AS blocked
               FROM sepa_transactions t JOIN users p ON p.id = t.professional_id WHERE t.status = 'REJECTED'`,
          )
        ).rows.filter((t) => t.blocked.includes((t.iban ?? '').replace(/[- ]/g, '').toUpperCase()));
        expect(a.transfersRejectedOrReturned).toEqual({
          count: returned.length + rejected.length,
          amountCents:
            returned.reduce((sum, l) => sum + Number(l.bank_amount_cents), 0) +
            rejected.reduce((sum, t) => sum + Number(t.amount_cents), 0),
        });
        if (phase === 'after changes') expect(rejected.length).toBeGreaterThan(0);
        if (phase === 'after changes') expect(returned.length).toBeGreaterThan(0);
        const exportStatuses = (await world.db.query<{ status: string }>('SELECT status FROM export_jobs'))
          .rows;
        expect(a.exportsFailed).toBe(exportStatuses.filter((j) => j.status === 'failed').length);
        if (phase === 'after changes') expect(a.exportsFailed).toBe(2);
        // The seed holds something in each counter that must not be vacuous.
        for (const n of [
          a.professionalsToVerify,
          a.professionalsDisabled,
          a.settlementsToProcess.count,
          a.statementLinesUnmatched.count,
        ])
          expect(n).toBeGreaterThan(0);
      });

      // Issue 29 point 7: a card's number is the total of the list it opens, in the same unit.
      it('counts each money card as the list it links to totals it', async () => {
        const a = dashboard.attention;
        const list = async <T>(path: string) => {
          const response = await world.get(path);
          expect(response.status).toBe(200);
          return (await response.json()) as T;
        };
        const toProcess = await list<{ totals: { settlementCount: number; payableCents: number } }>(
          '/v2/admin/settlement/professional?limit=1',
        );
        expect(a.settlementsToProcess).toEqual({
          count: toProcess.totals.settlementCount,
          amountCents: toProcess.totals.payableCents,
        });
        const files = await list<{ total: number }>(
          '/v2/admin/settlement/sepa/?status=GENERATED&status=AVAILABLE&limit=1',
        );
        expect(a.sepaFilesAwaitingBank.count).toBe(files.total);
        const lines = await list<{ total: number }>('/v2/admin/statements/lines?status=UNMATCHED&limit=1');
        expect(a.statementLinesUnmatched.count).toBe(lines.total);
      });

      it('counts cases per Lisbon day and status over the last 90 days', async () => {
        const { days, byStatus } = dashboard.trends.casesPerDay;
        expect(dashboard.today).toBe(lisbonDay(SEED_NOW));
        expect(days).toHaveLength(90);
        expect(days.at(-1)).toBe(dashboard.today);
        expect(days[0]).toBe(shift(dashboard.today, -89));
        const rows = (
          await world.db.query<{ created_at: Date; status: string }>('SELECT created_at, status FROM cases')
        ).rows;
        const expected = new Map<string, number>();
        for (const row of rows) {
          const day = lisbonDay(row.created_at);
          if (day < days[0]! || day > days.at(-1)!) continue;
          expected.set(`${day} ${row.status}`, (expected.get(`${day} ${row.status}`) ?? 0) + 1);
        }
        const answered = new Map<string, number>();
        for (const series of byStatus)
          series.counts.forEach((n, i) => {
            if (n > 0) answered.set(`${days[i]} ${series.status}`, n);
          });
        expect(Object.fromEntries(answered)).toEqual(Object.fromEntries(expected));
        expect(expected.size).toBeGreaterThan(0);
      });

      it('sums revenue per reference month (fee and net, refunds left out) and payouts per month', async () => {
        const { months, feeCents, netCents } = dashboard.trends.revenuePerMonth;
        expect(months).toHaveLength(12);
        expect(months.at(-1)).toBe(dashboard.today.slice(0, 7));
        const settlements = (
          await world.db.query<{
            reference_month: string;
            status: string;
            fee_cents: number;
            net_cents: number;
          }>('SELECT reference_month, status, fee_cents, net_cents FROM settlements')
        ).rows.filter((s) => !s.status.startsWith('REFUNDED'));
        const sum = (month: string, field: 'fee_cents' | 'net_cents') =>
          settlements.filter((s) => s.reference_month === month).reduce((total, s) => total + s[field], 0);
        expect(feeCents).toEqual(months.map((m) => sum(m, 'fee_cents')));
        expect(netCents).toEqual(months.map((m) => sum(m, 'net_cents')));
        expect(feeCents.some((n) => n > 0)).toBe(true);

        const payouts = dashboard.trends.payoutsPerMonth;
        const paid = (
          await world.db.query<{
            status: string;
            execution_date: string;
            amount_cents: string;
            transaction_count: number;
          }>(
            'SELECT status, execution_date::text AS execution_date, amount_cents, transaction_count FROM sepa_files',
          )
        ).rows.filter((f) => f.status === 'PAID' && f.execution_date <= dashboard.today);
        expect(payouts.months).toEqual(months);
        expect(payouts.amountCents).toEqual(
          months.map((m) =>
            paid
              .filter((f) => f.execution_date.startsWith(m))
              .reduce((t, f) => t + Number(f.amount_cents), 0),
          ),
        );
        expect(payouts.amountCents.some((n) => n > 0)).toBe(true);
        expect(payouts.transfers).toEqual(
          months.map((m) =>
            paid.filter((f) => f.execution_date.startsWith(m)).reduce((t, f) => t + f.transaction_count, 0),
          ),
        );
      });

      it('counts new patients and doctors per ISO week (Monday, Lisbon) over 26 weeks', async () => {
        const { weeks, customers, professionals } = dashboard.trends.signupsPerWeek;
        expect(weeks).toHaveLength(26);
        expect(weeks.at(-1)).toBe(mondayOf(dashboard.today));
        const users = (
          await world.db.query<{ role: string; created_at: Date }>('SELECT role, created_at FROM users')
        ).rows;
        const perWeek = (role: string) =>
          weeks.map(
            (week) =>
              users.filter((u) => {
                const day = lisbonDay(u.created_at);
                return u.role === role && mondayOf(day) === week && day <= dashboard.today;
              }).length,
          );
        expect(customers).toEqual(perWeek('CUSTOMER'));
        expect(professionals).toEqual(perWeek('PROFESSIONAL'));
        expect(customers.some((n) => n > 0)).toBe(true);
      });
    });
});
