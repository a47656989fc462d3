import type { SourceKind } from '../../domain/sources/source-ids';
import type { Queryable } from '../db/client';

/**
 * Each payout's settlements without invoice (migration 0056, decision 0167) kept by a source import once, at
 * its end, instead of by the payout rows' trigger and the invoices function chunk after chunk (~0.6 s of a
 * 100,000-case month). While `writes` runs, a transaction-local setting has both stand aside (0046/0050's
 * own totals in the invoices function still move); then, before the import commits, the payouts it touched
 * are counted again from their rows. The setting is set nowhere else, so no import can skip the recount.
 *
 * Imports run one at a time under their advisory lock, held exclusively from before their first write to
 * their commit. Any other writer of payout rows or invoices still goes through the triggers, which take that
 * lock shared before anything else: no such writer runs beside an import, so the recount (after its own
 * lock on the payouts, in id order) sees every row and invoice that bears on them, and no trigger misses the
 * import's rows. That costs nothing where the settlements' lock it replaces cost ~150 ms a month.
 */
const IMPORT_RECOUNTS = 'admin.payouts_recounted_by_import';

export async function keepingPayoutsFigureOnce<T>(
  tx: Queryable,
  sourceFileId: string,
  kind: SourceKind,
  writes: () => Promise<T>,
): Promise<T> {
  await tx.query('SELECT set_config($1, $2, true)', [IMPORT_RECOUNTS, 'on']);
  const written = await writes();
  await tx.query('SELECT set_config($1, $2, true)', [IMPORT_RECOUNTS, '']);
  await recountTouchedPayouts(tx, sourceFileId, kind);
  return written;
}

/**
 * The payouts the file touched: those of its rows (a payouts file); those whose charge rows name a
 * settlement its invoices bill (a SAF-T file — its invoices are only inserted and given a settlement they
 * had none of, so those they bill at the end are all they billed). Counted by
 * `provider_payouts_recount_without_invoice`: the payouts locked in id order, then one grouped recount (a
 * fresh snapshot).
 */
async function recountTouchedPayouts(tx: Queryable, sourceFileId: string, kind: SourceKind): Promise<void> {
  if (kind === 'SAFT_INVOICES') {
    await tx.query(
      `SELECT provider_payouts_recount_without_invoice(ARRAY(
         SELECT DISTINCT r.payout_id FROM provider_payout_rows r
          WHERE r.row_kind = 'charge'
            AND r.settlement_id IN (SELECT i.settlement_id FROM provider_invoices i
                                     WHERE i.source_file_id = $1 AND i.settlement_id IS NOT NULL)))`,
      [sourceFileId],
    );
    return;
  }
  await tx.query(
    `SELECT provider_payouts_recount_without_invoice(ARRAY(
       SELECT DISTINCT payout_id FROM provider_payout_rows WHERE source_file_id = $1))`,
    [sourceFileId],
  );
}
