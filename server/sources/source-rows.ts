import type { Queryable } from '../db/client';
import type { DocumentOut, PayoutRowOut, SourceReading } from './source-reading';

/**
 * The new rows of an imported file, written a chunk at a time with one `INSERT … SELECT FROM unnest`
 * each (100,000 rows are five statements, not 100,000): payouts and their rows, or SAF-T documents.
 * A row already stored under its source id is skipped by the unique index, whatever the caller knew.
 */

/**
 * Rows per INSERT. Each statement hashes the settlements its link joins read and, for documents, the
 * kept totals' trigger locks and counts the settlements it bills (migration 0050): per statement, not per
 * row, so 20,000 rather than 5,000 took a 100,000-invoice month's insert from 3.3 to 2.8 s (decision
 * 0162). Memory stays bounded by the chunk: its parameters are a few MiB of text.
 */
const CHUNK = 20_000;

export interface InsertedCounts {
  newRows: number;
  payouts: number | null;
  documents: number | null;
  creditNotes: number | null;
}

const column = <T, V>(rows: readonly T[], pick: (row: T) => V): V[] => rows.map(pick);

/**
 * A new payout row's settlement, found as the row is inserted (decision 0158: linking 100,000 rows after
 * their insert wrote each row twice and checked its foreign keys twice, 2.3 s): the settlement of the
 * subscription payment whose `provider_payment_id` is its payment intent, else of the case or subscription
 * payment its description or reference names — the rules of `links.ts`, in their order. Each join is on a
 * unique key, so a row meets at most one settlement per rule.
 */
const PAYOUT_ROW_LINK = {
  joins: `LEFT JOIN (subscription_payments sp JOIN settlements by_intent ON by_intent.subscription_payment_id = sp.id)
            ON sp.provider_payment_id = u.payment_intent_id
          LEFT JOIN settlements by_case ON by_case.case_id = u.case_reference
          LEFT JOIN settlements by_subscription ON by_subscription.subscription_payment_id = u.case_reference`,
  settlement: 'coalesce(by_intent.id, by_case.id, by_subscription.id)',
  method: `CASE WHEN by_intent.id IS NOT NULL THEN 'PAYMENT_INTENT'
                WHEN coalesce(by_case.id, by_subscription.id) IS NOT NULL THEN 'REFERENCE' END`,
};

/**
 * A new invoice's settlement by the reference it names, found as it is inserted (decision 0158); a credit
 * note bills none (it corrects an invoice), and the amount + day + customer rule runs after, in `links.ts`.
 */
const DOCUMENT_LINK = {
  joins: `LEFT JOIN settlements by_case ON u.credits_invoice_no IS NULL AND by_case.case_id = u.case_reference
          LEFT JOIN settlements by_subscription
            ON u.credits_invoice_no IS NULL AND by_subscription.subscription_payment_id = u.case_reference`,
  settlement: 'coalesce(by_case.id, by_subscription.id)',
  method: `CASE WHEN coalesce(by_case.id, by_subscription.id) IS NOT NULL THEN 'REFERENCE' END`,
};

export async function insertPayoutRows(
  tx: Queryable,
  sourceFileId: string,
  kind: 'STRIPE_PAYOUTS' | 'COLLECTOR_PAYOUTS',
  reading: SourceReading,
  fresh: (sourceId: string) => boolean,
  onProgress: (done: number) => void,
): Promise<InsertedCounts> {
  const rows = reading.payoutRows.filter((row) => fresh(row.sourceId));
  const touched = new Set(rows.map((row) => row.providerPayoutId));
  const payouts = reading.payouts.filter((payout) => touched.has(payout.providerId));
  if (rows.length === 0) return { newRows: 0, payouts: 0, documents: null, creditNotes: null };
  // A payout seeded or imported before keeps its amount (what the bank was paid); it gains the file's figures.
  const { rows: ids } = await tx.query<{ id: string; provider_payout_id: string }>(
    `INSERT INTO provider_payouts (provider_payout_id, amount_cents, payout_date, gross_cents, fee_cents, net_cents,
        amount_checked, source, source_file_id)
     SELECT u.*, $8::text, $9::uuid
       FROM unnest($1::text[], $2::bigint[], $3::date[], $4::bigint[], $5::bigint[], $6::bigint[], $7::boolean[]) AS u
     ON CONFLICT (provider_payout_id) DO UPDATE
        SET source = coalesce(provider_payouts.source, EXCLUDED.source),
            source_file_id = coalesce(provider_payouts.source_file_id, EXCLUDED.source_file_id),
            amount_checked = provider_payouts.amount_checked OR EXCLUDED.amount_checked
     RETURNING id, provider_payout_id`,
    [
      column(payouts, (p) => p.providerId),
      column(payouts, (p) => p.netCents),
      column(payouts, (p) => p.date),
      column(payouts, (p) => p.grossCents),
      column(payouts, (p) => p.feeCents),
      column(payouts, (p) => p.netCents),
      column(payouts, (p) => p.amountChecked),
      kind,
      sourceFileId,
    ],
  );
  const payoutIds = new Map(ids.map((row) => [row.provider_payout_id, row.id]));
  let newRows = 0;
  for (let start = 0; start < rows.length; start += CHUNK) {
    const chunk = rows.slice(start, start + CHUNK);
    newRows += await insertPayoutRowChunk(tx, sourceFileId, chunk, payoutIds);
    onProgress(start + chunk.length);
  }
  // A payout is the sum of its rows, those of earlier files included; checked once they add up to the
  // amount Stripe's Balance report stated (payout-amounts.ts refused the file if they did not).
  await tx.query(
    `UPDATE provider_payouts p SET gross_cents = s.gross, fee_cents = s.fee, net_cents = s.net,
            amount_checked = p.amount_checked OR coalesce(p.stated_amount_cents = s.net, false)
       FROM (SELECT payout_id, sum(gross_cents) AS gross, sum(fee_cents) AS fee, sum(net_cents) AS net
               FROM provider_payout_rows WHERE payout_id = ANY($1::uuid[]) GROUP BY payout_id) s
      WHERE p.id = s.payout_id`,
    [[...payoutIds.values()]],
  );
  return { newRows, payouts: payouts.length, documents: null, creditNotes: null };
}

async function insertPayoutRowChunk(
  tx: Queryable,
  sourceFileId: string,
  chunk: readonly PayoutRowOut[],
  payoutIds: ReadonlyMap<string, string>,
): Promise<number> {
  const { rowCount } = await tx.query(
    `INSERT INTO provider_payout_rows (source_id, payout_id, category, row_kind, gross_cents, fee_cents, net_cents,
        charge_id, payment_intent_id, reference, description, occurred_on, case_reference, source_file_id,
        settlement_id, link_method)
     SELECT u.*, $14::uuid, ${PAYOUT_ROW_LINK.settlement}, ${PAYOUT_ROW_LINK.method}
       FROM unnest($1::text[], $2::uuid[], $3::text[], $4::text[], $5::bigint[], $6::bigint[], $7::bigint[],
                   $8::text[], $9::text[], $10::text[], $11::text[], $12::date[], $13::uuid[])
            AS u(source_id, payout_id, category, row_kind, gross_cents, fee_cents, net_cents, charge_id,
                 payment_intent_id, reference, description, occurred_on, case_reference)
       ${PAYOUT_ROW_LINK.joins}
     ON CONFLICT (source_id) DO NOTHING`,
    [
      column(chunk, (r) => r.sourceId),
      column(chunk, (r) => payoutIds.get(r.providerPayoutId)!),
      column(chunk, (r) => r.category),
      column(chunk, (r) => r.rowKind),
      column(chunk, (r) => r.grossCents),
      column(chunk, (r) => r.feeCents),
      column(chunk, (r) => r.netCents),
      column(chunk, (r) => r.chargeId),
      column(chunk, (r) => r.paymentIntentId),
      column(chunk, (r) => r.reference),
      column(chunk, (r) => r.description),
      column(chunk, (r) => r.occurredOn),
      column(chunk, (r) => r.caseReference),
      sourceFileId,
    ],
  );
  return rowCount;
}

/**
 * The payouts a Stripe Balance report states (decision 0171), new ones only: a payout not imported yet is
 * created with the stated amount as what the bank is paid; one imported or seeded before keeps its amount
 * and gains the stated one, its arrival date and status — checked when its rows add up to it (the import
 * refused the file if they did not). Answers how many were stated and how many of them were checked.
 */
export async function insertStatedPayouts(
  tx: Queryable,
  sourceFileId: string,
  reading: SourceReading,
  fresh: (sourceId: string) => boolean,
): Promise<InsertedCounts & { checked: number }> {
  const stated = reading.statedPayouts.filter((payout) => fresh(payout.sourceId));
  if (stated.length === 0) return { newRows: 0, payouts: 0, documents: null, creditNotes: null, checked: 0 };
  const { rows } = await tx.query<{ amount_checked: boolean }>(
    `INSERT INTO provider_payouts AS p (provider_payout_id, amount_cents, payout_date, stated_amount_cents,
        expected_arrival_date, provider_status, stated_file_id, source, source_file_id)
     SELECT u.id, u.amount, u.day, u.amount, u.arrival, u.status, $6::uuid, 'STRIPE_BALANCE_PAYOUTS', $6::uuid
       FROM unnest($1::text[], $2::bigint[], $3::date[], $4::date[], $5::text[]) AS u(id, amount, day, arrival, status)
     ON CONFLICT (provider_payout_id) DO UPDATE
        SET stated_amount_cents = EXCLUDED.stated_amount_cents,
            expected_arrival_date = EXCLUDED.expected_arrival_date,
            provider_status = EXCLUDED.provider_status,
            stated_file_id = EXCLUDED.stated_file_id,
            source = coalesce(p.source, EXCLUDED.source),
            source_file_id = coalesce(p.source_file_id, EXCLUDED.source_file_id),
            amount_checked = p.amount_checked OR coalesce(p.net_cents = EXCLUDED.stated_amount_cents, false)
      WHERE p.stated_file_id IS NULL
     RETURNING p.amount_checked`,
    [
      column(stated, (p) => p.providerId),
      column(stated, (p) => p.amountCents),
      column(stated, (p) => p.date),
      column(stated, (p) => p.expectedArrivalDate),
      column(stated, (p) => p.status),
      sourceFileId,
    ],
  );
  return {
    newRows: rows.length,
    payouts: rows.length,
    documents: null,
    creditNotes: null,
    checked: rows.filter((row) => row.amount_checked).length,
  };
}

export async function insertDocuments(
  tx: Queryable,
  sourceFileId: string,
  reading: SourceReading,
  fresh: (sourceId: string) => boolean,
  onProgress: (done: number) => void,
): Promise<InsertedCounts> {
  const documents = reading.documents.filter((doc) => fresh(doc.sourceId));
  let newRows = 0;
  let creditNotes = 0;
  for (let start = 0; start < documents.length; start += CHUNK) {
    const chunk = documents.slice(start, start + CHUNK);
    const inserted = await insertDocumentChunk(tx, sourceFileId, chunk);
    newRows += inserted.rows;
    creditNotes += inserted.creditNotes;
    onProgress(start + chunk.length);
  }
  return { newRows, payouts: null, documents: newRows - creditNotes, creditNotes };
}

async function insertDocumentChunk(
  tx: Queryable,
  sourceFileId: string,
  chunk: readonly DocumentOut[],
): Promise<{ rows: number; creditNotes: number }> {
  const { rows } = await tx.query<{ rows: string; credit_notes: string }>(
    `WITH inserted AS (
       INSERT INTO provider_invoices (provider_invoice_id, amount_cents, invoice_date, document_type, document_status,
           invoice_no, atcud, customer_tax_id, gross_cents, net_cents, tax_cents, case_reference, credits_invoice_no,
           source_file_id, settlement_id, link_method)
       SELECT u.*, $14::uuid, ${DOCUMENT_LINK.settlement}, ${DOCUMENT_LINK.method}
         FROM unnest($1::text[], $2::bigint[], $3::date[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                     $9::bigint[], $10::bigint[], $11::bigint[], $12::uuid[], $13::text[])
              AS u(provider_invoice_id, amount_cents, invoice_date, document_type, document_status, invoice_no, atcud,
                   customer_tax_id, gross_cents, net_cents, tax_cents, case_reference, credits_invoice_no)
         ${DOCUMENT_LINK.joins}
       -- by its source id, or by its ATCUD alone: the tax authority's code names one document
       ON CONFLICT DO NOTHING
       RETURNING document_type)
     SELECT count(*) AS rows, count(*) FILTER (WHERE document_type = 'NC') AS credit_notes FROM inserted`,
    [
      column(chunk, (d) => d.sourceId),
      column(chunk, (d) => d.amountCents),
      column(chunk, (d) => d.date),
      column(chunk, (d) => d.type),
      column(chunk, (d) => d.status),
      column(chunk, (d) => d.invoiceNo),
      column(chunk, (d) => d.atcud),
      column(chunk, (d) => d.customerTaxId),
      column(chunk, (d) => d.grossCents),
      column(chunk, (d) => d.netCents),
      column(chunk, (d) => d.taxCents),
      column(chunk, (d) => d.caseReference),
      column(chunk, (d) => d.creditsInvoiceNo),
      sourceFileId,
    ],
  );
  return { rows: Number(rows[0]!.rows), creditNotes: Number(rows[0]!.credit_notes) };
}
