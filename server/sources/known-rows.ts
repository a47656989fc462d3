import type { KnownSourceRow } from '../../contract/source-import';
import type { SourceKind } from '../../domain/sources/source-ids';
import type { Queryable } from '../db/client';

/** Ids asked per query: the unique indexes answer each piece. */
const PIECE = 5_000;

interface KnownRow {
  id: string;
  source_file_id: string;
  file_name: string;
  imported_at: Date;
}

const knownOf = (row: KnownRow, id: string): KnownSourceRow => ({
  id,
  sourceFileId: row.source_file_id,
  fileName: row.file_name,
  importedAt: new Date(row.imported_at).toISOString(),
});

/**
 * Which of a file's rows were imported before, by their source id (domain/sources/source-ids.ts): the
 * preview's question (`POST /v2/admin/sources/known`) and the import's dedup, before the job and again
 * under the import lock. A payout row is known within its kind's files; a payout Stripe's Balance report
 * states, once a file of that report stated it; a document by its `InvoiceNo|ATCUD`, or by its ATCUD alone
 * (`knownDocuments`).
 */
export async function knownSourceRows(
  db: Queryable,
  kind: SourceKind,
  ids: readonly string[],
): Promise<KnownSourceRow[]> {
  const known: KnownSourceRow[] = [];
  for (let start = 0; start < ids.length; start += PIECE) {
    const piece = ids.slice(start, start + PIECE);
    if (kind === 'SAFT_INVOICES') {
      known.push(...(await knownDocuments(db, piece)));
      continue;
    }
    if (kind === 'STRIPE_BALANCE_PAYOUTS') {
      const { rows } = await db.query<KnownRow>(
        `SELECT p.provider_payout_id AS id, f.id AS source_file_id, f.file_name, f.imported_at
           FROM provider_payouts p JOIN source_files f ON f.id = p.stated_file_id
          WHERE p.provider_payout_id = ANY($1::text[])`,
        [piece],
      );
      for (const row of rows) known.push(knownOf(row, row.id));
      continue;
    }
    const { rows } = await db.query<KnownRow>(
      `SELECT r.source_id AS id, f.id AS source_file_id, f.file_name, f.imported_at
         FROM provider_payout_rows r JOIN source_files f ON f.id = r.source_file_id
        WHERE r.source_id = ANY($1::text[]) AND f.kind = $2`,
      [piece, kind],
    );
    for (const row of rows) known.push(knownOf(row, row.id));
  }
  return known;
}

/** The ATCUD of a document's source id (`InvoiceNo|ATCUD`); `0` names no document (files before 2023). */
function atcudOf(id: string): string | null {
  const bar = id.lastIndexOf('|');
  const atcud = bar < 0 ? '' : id.slice(bar + 1);
  return atcud === '' || atcud === '0' ? null : atcud;
}

/**
 * Documents known by their source id, or by their ATCUD alone: the tax authority's code names one document,
 * so one renumbered since is the one imported before (the import skips it the same way, `source-rows.ts`).
 * Each is answered under the id asked.
 */
async function knownDocuments(db: Queryable, ids: readonly string[]): Promise<KnownSourceRow[]> {
  const atcuds = ids.map(atcudOf);
  const { rows } = await db.query<KnownRow & { atcud: string | null }>(
    `SELECT i.provider_invoice_id AS id, i.atcud, f.id AS source_file_id, f.file_name, f.imported_at
       FROM provider_invoices i JOIN source_files f ON f.id = i.source_file_id
      WHERE i.provider_invoice_id = ANY($1::text[]) OR i.atcud = ANY($2::text[])`,
    [ids, atcuds.filter((atcud) => atcud !== null)],
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const byAtcud = new Map(rows.flatMap((row) => (row.atcud === null ? [] : [[row.atcud, row] as const])));
  const known: KnownSourceRow[] = [];
  ids.forEach((id, index) => {
    const atcud = atcuds[index] ?? null;
    const row = byId.get(id) ?? (atcud === null ? undefined : byAtcud.get(atcud));
    if (row) known.push(knownOf(row, id));
  });
  return known;
}

export async function knownSourceIds(
  db: Queryable,
  kind: SourceKind,
  ids: readonly string[],
): Promise<Set<string>> {
  return new Set((await knownSourceRows(db, kind, ids)).map((row) => row.id));
}
