import type { SourceKind } from '../../domain/sources/source-ids';
import type { Queryable } from '../db/client';

/**
 * The new rows of an imported file linked to what they settle, in the import's transaction (decision
 * 0152). Set-based, by the file's id, each rule only over what the rules before it left unlinked:
 * - a payout row → the settlement of the subscription payment whose `provider_payment_id` is its payment
 *   intent, else of the case or subscription payment its description or reference names (a UUID) — found
 *   as the row is inserted (`source-rows.ts`, decision 0158), counted here;
 * - an invoice → the settlement of the case or subscription payment its `OrderReferences` or line texts
 *   name (found as it is inserted, decision 0158), else the one settlement of its amount, day and customer
 *   tax id (one each way, not billed yet);
 * - a credit note → the invoice its `References` name; an invoice → the credit notes imported before it
 *   that name it.
 * Each rule reads settlements and documents only, never the other source's rows, so the payouts and the
 * invoices can be imported in either order and end with the same links.
 */
export async function linkSourceFile(
  tx: Queryable,
  sourceFileId: string,
  kind: SourceKind,
): Promise<{ linked: number }> {
  return kind === 'SAFT_INVOICES' ? linkDocuments(tx, sourceFileId) : linkPayoutRows(tx, sourceFileId);
}

async function linkPayoutRows(tx: Queryable, sourceFileId: string): Promise<{ linked: number }> {
  const { rows } = await tx.query<{ linked: string }>(
    'SELECT count(*) AS linked FROM provider_payout_rows WHERE source_file_id = $1 AND settlement_id IS NOT NULL',
    [sourceFileId],
  );
  return { linked: Number(rows[0]!.linked) };
}

async function linkDocuments(tx: Queryable, sourceFileId: string): Promise<{ linked: number }> {
  // Amount, day and customer: only a pair each side has no other candidate for, and a settlement no
  // invoice bills yet.
  await tx.query(
    `WITH candidates AS (
       SELECT i.id AS invoice_id, s.id AS settlement_id,
              count(*) OVER (PARTITION BY i.id) AS per_invoice,
              count(*) OVER (PARTITION BY s.id) AS per_settlement
         FROM provider_invoices i
         JOIN settlements s ON s.gross_cents = i.gross_cents AND s.payment_date = i.invoice_date
         LEFT JOIN cases c ON c.id = s.case_id
         LEFT JOIN subscription_payments sp ON sp.id = s.subscription_payment_id
         JOIN users u ON u.id = coalesce(c.customer_id, sp.customer_id)
        WHERE i.source_file_id = $1 AND i.settlement_id IS NULL AND i.credits_invoice_no IS NULL
          AND u.tax_number = i.customer_tax_id
          AND NOT EXISTS (SELECT 1 FROM provider_invoices o WHERE o.settlement_id = s.id))
     UPDATE provider_invoices i SET settlement_id = c.settlement_id, link_method = 'AMOUNT_DATE_CUSTOMER'
       FROM candidates c
      WHERE i.id = c.invoice_id AND c.per_invoice = 1 AND c.per_settlement = 1`,
    [sourceFileId],
  );
  await tx.query(
    `WITH notes AS MATERIALIZED (
       SELECT id, credits_invoice_no FROM provider_invoices
        WHERE source_file_id = $1 AND credits_invoice_no IS NOT NULL AND credited_invoice_id IS NULL)
     UPDATE provider_invoices n SET credited_invoice_id = i.id
       FROM notes, provider_invoices i
      WHERE n.id = notes.id AND i.invoice_no = notes.credits_invoice_no AND i.credits_invoice_no IS NULL
        AND i.source_file_id IS NOT NULL`,
    [sourceFileId],
  );
  await tx.query(
    `UPDATE provider_invoices n SET credited_invoice_id = i.id
       FROM provider_invoices i
      WHERE i.source_file_id = $1 AND i.credits_invoice_no IS NULL
        AND n.credits_invoice_no = i.invoice_no AND n.credited_invoice_id IS NULL`,
    [sourceFileId],
  );
  const { rows } = await tx.query<{ linked: string }>(
    `SELECT count(*) AS linked FROM provider_invoices
      WHERE source_file_id = $1 AND (settlement_id IS NOT NULL OR credited_invoice_id IS NOT NULL)`,
    [sourceFileId],
  );
  return { linked: Number(rows[0]!.linked) };
}
