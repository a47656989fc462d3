import type { StatementIdentity } from '../../domain/statements/statement-identity';

/**
 * A stored statement's identity as the reads select it (`bank_statements`): what the continuity of the
 * files list and the recognition of known lines both judge (domain/statements/statement-identity.ts).
 */
export interface IdentityRow {
  bank_statement_id: string | null;
  sequence: string | null;
  period_start: string;
  period_end: string;
  opening_balance_cents: string | number | null;
  closing_balance_cents: string | number | null;
}

/** The columns of an `IdentityRow`, from the `bank_statements` row aliased `alias`. */
export const identityColumns = (alias: string) =>
  `${alias}.bank_statement_id, ${alias}.sequence, ${alias}.period_start::text AS period_start,
   ${alias}.period_end::text AS period_end, ${alias}.opening_balance_cents, ${alias}.closing_balance_cents`;

/** A bigint as the drivers answer it (text on pg, number on PGlite) in cents. */
export const centsOf = (value: string | number | null) => (value === null ? null : Number(value));

export const identityOf = (accountIban: string, row: IdentityRow): StatementIdentity => ({
  accountIban,
  statementId: row.bank_statement_id,
  sequence: row.sequence,
  periodStart: row.period_start,
  periodEnd: row.period_end,
  openingBalanceCents: centsOf(row.opening_balance_cents),
  closingBalanceCents: centsOf(row.closing_balance_cents),
});
