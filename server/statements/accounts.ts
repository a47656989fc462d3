import type { StatementAccountRow } from '../../contract/statement-import';
import type { Queryable } from '../db/client';

/**
 * The accounts statements were imported for (issue 27), for the preview's account picker: each with its
 * number of statements and its latest statement's period end and closing balance (the next statement
 * should open with it). Read from `bank_statements` by its (account, period) index.
 */
export async function listStatementAccounts(db: Queryable): Promise<StatementAccountRow[]> {
  const { rows } = await db.query<{
    account_iban: string;
    currency: string | null;
    statement_count: number;
    last_period_end: string;
    last_closing_balance_cents: string | number | null;
  }>(
    `SELECT a.account_iban, a.statement_count, last.currency, last.period_end::text AS last_period_end,
            last.closing_balance_cents AS last_closing_balance_cents
       FROM (SELECT account_iban, count(*)::int AS statement_count
               FROM bank_statements WHERE account_iban IS NOT NULL GROUP BY account_iban) a
       CROSS JOIN LATERAL (
         SELECT b.currency, b.period_end, b.closing_balance_cents
           FROM bank_statements b
          WHERE b.account_iban = a.account_iban
          ORDER BY b.period_end DESC, b.period_start DESC, b.closing_balance_cents IS NULL, b.id
          LIMIT 1) last
      ORDER BY a.account_iban`,
  );
  return rows.map((row) => ({
    accountIban: row.account_iban,
    currency: row.currency,
    statementCount: row.statement_count,
    lastPeriodEnd: row.last_period_end,
    lastClosingBalanceCents:
      row.last_closing_balance_cents === null ? null : Number(row.last_closing_balance_cents),
  }));
}
