import type { Queryable } from '../db/client';
import { type Refusal, refuse } from '../platform/refusal';
import type { SourceReading } from './source-reading';

/**
 * A Stripe payout's stated amount (its Balance report) against the net of its rows (its itemized report),
 * whichever file comes second (decision 0171): the payouts the file would leave with both, and rows that
 * do not add up to the amount, as the refusal `STRIPE_PAYOUT_SUM_MISMATCH` with both numbers — the first
 * such payout by id. Asked before the job and again in the import's transaction, under the import lock, so
 * nothing is written when it answers. `isNew` says which of the file's ids are not imported yet.
 */
export async function payoutAmountMismatch(
  q: Queryable,
  reading: SourceReading,
  isNew: (sourceId: string) => boolean,
): Promise<Refusal | null> {
  const pairs =
    reading.kind === 'STRIPE_BALANCE_PAYOUTS'
      ? await statedAgainstStoredRows(q, reading, isNew)
      : reading.kind === 'STRIPE_PAYOUTS'
        ? await rowsAgainstStoredAmounts(q, reading, isNew)
        : [];
  const mismatch = pairs
    .filter((pair) => pair.payoutCents !== pair.rowsNetCents)
    .sort((a, b) => (a.payoutId < b.payoutId ? -1 : 1))[0];
  return mismatch ? refuse('STRIPE_PAYOUT_SUM_MISMATCH', { extra: { ...mismatch } }) : null;
}

interface Pair {
  payoutId: string;
  payoutCents: number;
  rowsNetCents: number;
}

/** The Balance report second: each new stated amount against the rows already imported for its payout. */
async function statedAgainstStoredRows(
  q: Queryable,
  reading: SourceReading,
  isNew: (sourceId: string) => boolean,
): Promise<Pair[]> {
  const stated = reading.statedPayouts.filter((payout) => isNew(payout.sourceId));
  if (stated.length === 0) return [];
  const { rows } = await q.query<{ provider_payout_id: string; rows_net: string }>(
    `SELECT p.provider_payout_id, sum(r.net_cents) AS rows_net
       FROM provider_payouts p JOIN provider_payout_rows r ON r.payout_id = p.id
      WHERE p.provider_payout_id = ANY($1::text[])
      GROUP BY p.provider_payout_id`,
    [stated.map((payout) => payout.providerId)],
  );
  const rowsNet = new Map(rows.map((row) => [row.provider_payout_id, Number(row.rows_net)]));
  return stated.flatMap((payout) => {
    const net = rowsNet.get(payout.providerId);
    return net === undefined
      ? []
      : [{ payoutId: payout.providerId, payoutCents: payout.amountCents, rowsNetCents: net }];
  });
}

/** The itemized report second: each payout its new rows add to, its rows then against its stated amount. */
async function rowsAgainstStoredAmounts(
  q: Queryable,
  reading: SourceReading,
  isNew: (sourceId: string) => boolean,
): Promise<Pair[]> {
  const added = new Map<string, number>();
  for (const row of reading.payoutRows)
    if (isNew(row.sourceId))
      added.set(row.providerPayoutId, (added.get(row.providerPayoutId) ?? 0) + row.netCents);
  if (added.size === 0) return [];
  const { rows } = await q.query<{ provider_payout_id: string; stated: string; rows_net: string }>(
    `SELECT p.provider_payout_id, p.stated_amount_cents AS stated,
            (SELECT coalesce(sum(r.net_cents), 0) FROM provider_payout_rows r WHERE r.payout_id = p.id) AS rows_net
       FROM provider_payouts p
      WHERE p.provider_payout_id = ANY($1::text[]) AND p.stated_amount_cents IS NOT NULL`,
    [[...added.keys()]],
  );
  return rows.map((row) => ({
    payoutId: row.provider_payout_id,
    payoutCents: Number(row.stated),
    rowsNetCents: Number(row.rows_net) + added.get(row.provider_payout_id)!,
  }));
}

/**
 * A Stripe file whose every payout is now checked against the other Stripe file's figure (its rows, or its
 * stated amount) has its control totals checked, as a file stating its own `payout` rows has (decision 0152):
 * the files list then says which files were. Run in the import's transaction, after its payouts are written.
 */
export async function markStripeFileChecked(
  tx: Queryable,
  sourceFileId: string,
  reading: SourceReading,
): Promise<void> {
  const ids = [...reading.payouts, ...reading.statedPayouts].map((payout) => payout.providerId);
  await tx.query(
    `UPDATE source_files SET control_totals_checked = true
      WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM provider_payouts
                                     WHERE provider_payout_id = ANY($2::text[]) AND NOT amount_checked)`,
    [sourceFileId, ids],
  );
}
