import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../support/databases';
import { type CaseWorld, SEED_NOW, startCaseWorld } from './cases-support';
import { camt053 } from './sepa-statement-support';
import { importPath, previewOf } from './statement-support';

interface Dashboard {
  today: string;
  attention: {
    professionalsToVerify: number;
    professionalsDisabled: number;
    casesWaitingPayment: number;
    settlementsToProcess: { count: number; amountCents: number };
    sepaFilesAwaitingBank: { count: number; amountCents: number };
    returnsToMatch: { count: number; amountCents: number };
    doctorsPayoutsBlocked: number;
    statementLinesUnmatched: { count: number; amountCents: number };
    exportsFailed: number;
    statementAutomation: { month: string; imported: number; automated: number };
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
   * a patient signing up today and a doctor removed, exports that failed or were cancelled (the viewing
   * admin's, and another admin's failure the card leaves out), payout blocks that hold or no longer do.
   */
  async function change(): Promise<void> {
    const { rows: others } = await world.db.query<{ id: string }>(
      `INSERT INTO users (role, email, name, admin_data) VALUES ('ADMIN', 'dashboard-other-admin@example.pt', 'Outra', '{}')
       RETURNING id`,
    );
    await world.db.query(
      `INSERT INTO export_jobs (requested_by, type, filters, format, locale, status, estimated_total,
                               error_reason, created_at, finished_at, expires_at)
       SELECT s.admin, s.type, '{"dateField": "CREATED", "startDate": "2026-01-01", "endDate": null}', 'CSV', 'pt-PT', s.status, 10, s.reason, $1, $1, $1::timestamptz + interval '7 days'
         FROM (VALUES ($2::uuid, 'CASES', 'failed', 'INSTANCE_STOPPED'), ($2::uuid, 'USERS', 'failed', 'EXPORT_FAILED'),
                      ($2::uuid, 'CASES', 'cancelled', NULL), ($3::uuid, 'CASES', 'failed', 'INSTANCE_STOPPED'))
              s (admin, type, status, reason)`,
      [SEED_NOW, world.adminId, others[0]!.id],
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
    // The same doctor blocked twice (one doctor, counted once), and a doctor whose block no longer holds:
    // the IBAN the bank refused is not the one they have now.
    await world.db.query(
      `INSERT INTO payout_blocks (professional_id, blocked_iban, reason_code, created_at)
       SELECT b.professional_id, b.blocked_iban, 'MD07', $1::timestamptz FROM payout_blocks b WHERE b.reason_code = 'AC04'
       UNION ALL
       (SELECT id, 'PT50000201231234567890154', 'AC01', $1 FROM users
         WHERE role = 'PROFESSIONAL' AND iban IS NOT NULL
           AND id NOT IN (SELECT professional_id FROM payout_blocks) ORDER BY id LIMIT 1)`,
      [SEED_NOW],
    );
    // A return the seed matched, unmatched through its route: a return to look at again.
    const matchedReturn = await world.db.query<{ id: string }>(
      `SELECT id FROM statement_lines WHERE kind = 'return' AND status = 'MATCHED' ORDER BY id LIMIT 1`,
    );
    expect((await world.post(`/v2/admin/statements/lines/${matchedReturn.rows[0]!.id}/unmatch`)).status).toBe(
      200,
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
    // The month's automation (decision 0147): a statement of four credits the import can only suggest
    // (payouts of their amounts); one accepted line by line (a), one as a selection (x, Shift+a) — not
    // automated — and the other two by Shift+a over a score filter, which counts as automated.
    const amounts = [4101, 4102, 4103, 4104];
    await world.db.query(
      `INSERT INTO provider_payouts (provider_payout_id, amount_cents, payout_date)
       SELECT 'po_automation_' || a, a, '2026-03-12' FROM unnest($1::int[]) a`,
      [amounts],
    );
    const fileId = await importThroughRoute(
      camt053(amounts.map((cents) => ({ cents, date: '2026-03-13', text: 'TRF CRED PRESTADOR' }))),
    );
    const { rows: suggested } = await world.db.query<{ id: string }>(
      `SELECT id FROM statement_lines WHERE statement_file_id = $1 AND status = 'SUGGESTED' ORDER BY line_number`,
      [fileId],
    );
    expect(suggested).toHaveLength(4);
    expect((await world.post(`/v2/admin/statements/lines/${suggested[0]!.id}/accept`)).status).toBe(200);
    expect((await send('/v2/admin/statements/lines/accept', { lineIds: [suggested[1]!.id] })).status).toBe(
      200,
    );
    // Counted a second later than the lines last changed: a change in the count's very instant is never
    // accepted unconfirmed (decision 0147).
    world.clock.current = new Date(SEED_NOW.getTime() + 1000);
    const filter = { statementFileId: fileId, minScore: '0' };
    const counted = (await (
      await world.get(`/v2/admin/statements/lines/suggestions?${new URLSearchParams(filter)}`)
    ).json()) as { count: number; asOf: string };
    expect(counted.count).toBe(2);
    const filtered = await send('/v2/admin/statements/lines/accept-filter', {
      filter: { ...filter, minScore: 0 },
      asOf: counted.asOf,
    });
    expect(((await filtered.json()) as { accepted: number }).accepted).toBe(2);
    await world.db.query(
      `UPDATE users SET created_at = created_at - interval '3 days'
        WHERE id = (SELECT id FROM users WHERE role = 'PROFESSIONAL' ORDER BY created_at DESC LIMIT 1)`,
    );
  }

  /** A POST with a JSON body and a fresh Idempotency-Key, as the console sends its bulk accepts. */
  const send = (path: string, body: unknown) =>
    fetch(`${world.url}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${world.adminToken}`,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      body: JSON.stringify(body),
    });

  /** A statement through the import route the console uses, followed until done: its file's id. */
  async function importThroughRoute(xml: string): Promise<string> {
    const path = importPath(`extrato-${randomUUID().slice(0, 8)}.xml`, previewOf(Buffer.from(xml)), {});
    let { job } = (await (
      await fetch(`${world.url}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${world.adminToken}`,
          'content-type': 'application/octet-stream',
          'idempotency-key': randomUUID(),
        },
        body: xml,
      })
    ).json()) as { job: { id: string; status: string; result: { statementFileId: string } | null } };
    while (job.status === 'RUNNING') {
      await new Promise((resolve) => setTimeout(resolve, 100));
      job = (await (await world.get(`/v2/admin/statements/imports/${job.id}`)).json()) as typeof job;
    }
    expect(job.status).toBe('DONE');
    return job.result!.statementFileId;
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
        expect(a.returnsToMatch).toEqual({
          count: returned.length,
          amountCents: returned.reduce((sum, l) => sum + Number(l.bank_amount_cents), 0),
        });
        // Doctors with a block that holds: the doctor's IBAN now, spaces and dashes out, upper case.
        const blocks = (
          await world.db.query<{ professional_id: string; blocked_iban: string; iban: string | null }>(
            `SELECT b.professional_id, b.blocked_iban, p.iban FROM payout_blocks b JOIN users p ON p.id = b.professional_id`,
          )
        ).rows;
        const holding = blocks.filter(
          (b) => b.blocked_iban === (b.iban ?? '').replace(/[- ]/g, '').toUpperCase(),
        );
        expect(a.doctorsPayoutsBlocked).toBe(new Set(holding.map((b) => b.professional_id)).size);
        if (phase === 'after changes') {
          expect(holding.length).toBeGreaterThan(a.doctorsPayoutsBlocked);
          expect(blocks.length).toBeGreaterThan(holding.length);
        }
        const exports = (
          await world.db.query<{ status: string; requested_by: string }>(
            'SELECT status, requested_by FROM export_jobs',
          )
        ).rows.filter((j) => j.status === 'failed');
        expect(a.exportsFailed).toBe(exports.filter((j) => j.requested_by === world.adminId).length);
        if (phase === 'after changes') {
          expect(a.exportsFailed).toBe(2);
          expect(exports.length).toBeGreaterThan(a.exportsFailed);
        }
        if (phase === 'after changes') expect(returned.length).toBeGreaterThan(0);
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
        const returns = await list<{ total: number }>(
          '/v2/admin/statements/lines?kind=return&status=UNMATCHED&status=SUGGESTED&status=DISCREPANCY&limit=1',
        );
        expect(a.returnsToMatch.count).toBe(returns.total);
        const blocked = await list<{ items: { professionalId: string }[]; total: number }>(
          '/v2/admin/professionals/payout-blocked',
        );
        expect(a.doctorsPayoutsBlocked).toBe(blocked.total);
        expect(new Set(blocked.items.map((d) => d.professionalId)).size).toBe(blocked.total);
        const failed = await list<{ total: number }>('/v2/admin/exports?status=failed&limit=1');
        expect(a.exportsFailed).toBe(failed.total);
        if (phase === 'after changes') expect(blocked.total).toBeGreaterThan(0);
        if (phase === 'after changes') expect(returns.total).toBeGreaterThan(0);
      });

      it('rates the month’s automation as independent SQL does, counting the list its card opens', async () => {
        const { statementAutomation } = dashboard.attention;
        // March 2026 in Lisbon (no summer time before the 29th): the seed's last statement is of it.
        const { rows } = await world.db.query<{
          status: string;
          match_method: string | null;
          last_action_id: string | null;
          imported_at: Date;
        }>(
          `SELECT l.status, l.match_method, l.last_action_id, f.imported_at
             FROM statement_lines l JOIN statement_files f ON f.id = l.statement_file_id`,
        );
        const filterAccepts = new Set(
          (
            await world.db.query<{ after: { actionId: string; filter?: unknown } }>(
              `SELECT after FROM audit_log WHERE action = 'statement.bulk-accept'`,
            )
          ).rows
            .filter((r) => r.after.filter !== undefined)
            .map((r) => r.after.actionId),
        );
        const imported = rows.filter((r) => lisbonDay(r.imported_at).startsWith('2026-03'));
        const automated = imported.filter(
          (r) =>
            r.status === 'MATCHED' &&
            r.match_method !== 'MANUAL' &&
            (r.last_action_id === null || filterAccepts.has(r.last_action_id)),
        );
        expect(statementAutomation).toEqual({
          month: '2026-03',
          imported: imported.length,
          automated: automated.length,
        });
        expect(automated.length).toBeGreaterThan(0);
        expect(imported.length).toBeGreaterThan(automated.length);
        if (phase === 'after changes') expect(filterAccepts.size).toBe(1);
        const response = await world.get('/v2/admin/statements/lines?automatedMonth=2026-03&limit=1');
        expect(response.status).toBe(200);
        expect(((await response.json()) as { total: number }).total).toBe(automated.length);
        for (const bad of ['2026-13', '26-03', '2026-3'])
          expect((await world.get(`/v2/admin/statements/lines?automatedMonth=${bad}`)).status).toBe(400);
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
