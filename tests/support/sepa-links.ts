import type { Queryable } from '../../server/db/client';

export interface LinkFixture {
  professional: string;
  settlements: string[];
  file: string;
  transaction: string;
}

let sequence = 0;

/** A doctor with `count` SETTLED settlements and one GENERATED file with one transfer for them; once linked, they are PENDING_TRANSFER. */
export async function linkFixture(db: Queryable, count: number): Promise<LinkFixture> {
  const n = ++sequence;
  const user = (email: string, role: string) =>
    db
      .query<{ id: string }>('INSERT INTO users (role, email) VALUES ($1, $2) RETURNING id', [role, email])
      .then((r) => r.rows[0]!.id);
  const professional = await user(`links.pro.${n}@example.com`, 'PROFESSIONAL');
  const customer = await user(`links.customer.${n}@example.com`, 'CUSTOMER');
  const { rows: settlements } = await db.query<{ id: string }>(
    `WITH c AS (
       INSERT INTO cases (customer_id, professional_id, status, type, price_cents)
       SELECT $1, $2, 'CLOSED_BY_PROFESSIONAL', 'SINGLE_CASE', 2000 FROM generate_series(1, $3) RETURNING id)
     INSERT INTO settlements (professional_id, case_id, reference_month, gross_cents, fee_cents, net_cents, status)
     SELECT $2, c.id, '2026-01', 2000, 320, 1680, 'SETTLED' FROM c RETURNING id`,
    [customer, professional, count],
  );
  const file = (
    await db.query<{ id: string }>(
      `INSERT INTO sepa_files (msg_id, payment_info_id, amount_cents, transaction_count, reference_month, execution_date, debtor_name, debtor_iban)
       VALUES ($1, $1 || '-P1', 1680, 1, '2026-01', '2026-02-03', 'Debtor', 'PT50003506510000123456714') RETURNING id`,
      [`MSG-LINKS-${n}`],
    )
  ).rows[0]!.id;
  const transaction = (
    await db.query<{ id: string }>(
      `INSERT INTO sepa_transactions (sepa_file_id, end_to_end_id, professional_id, amount_cents, creditor_name, creditor_iban, remittance_information)
       VALUES ($1, $2, $3, 1680, 'Pro', 'PT50003506510000123456714', 'Consultas') RETURNING id`,
      [file, `MSG-LINKS-${n}-1`, professional],
    )
  ).rows[0]!.id;
  return { professional, settlements: settlements.map((s) => s.id), file, transaction };
}

export const link = (db: Queryable, transaction: string, file: string, settlements: readonly string[]) =>
  db.query(
    `INSERT INTO sepa_transaction_settlements (sepa_transaction_id, sepa_file_id, settlement_id, amount_cents)
     SELECT $1, $2, s, 1680 FROM unnest($3::uuid[]) AS s`,
    [transaction, file, settlements],
  );
