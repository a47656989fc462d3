import type { KnownSourceRow } from '../../contract/source-import';
import type { SourceKind } from '../../domain/sources/source-ids';
import type { Queryable } from '../db/client';

/** Ids asked per query: the unique index on the source id answers each piece. */
const PIECE = 5_000;

/**
 * Which of a file's rows were imported before, by their source id (domain/sources/source-ids.ts): the
 * preview's question (`POST /v2/admin/sources/known`) and the import's dedup, before the job and again
 * under the import lock. A payout row is known within its kind's files; a document by its `InvoiceNo|ATCUD`.
 */
export async function knownSourceRows(
  db: Queryable,
  kind: SourceKind,
  ids: readonly string[],
): Promise<KnownSourceRow[]> {
  const known: KnownSourceRow[] = [];
  for (let start = 0; start < ids.length; start += PIECE) {
    const piece = ids.slice(start, start + PIECE);
    const { rows } = await db.query<{
      id: string;
      source_file_id: string;
      file_name: string;
      imported_at: Date;
    }>(
      kind === 'SAFT_INVOICES'
        ? `SELECT i.provider_invoice_id AS id, f.id AS source_file_id, f.file_name, f.imported_at
             FROM provider_invoices i JOIN source_files f ON f.id = i.source_file_id
            WHERE i.provider_invoice_id = ANY($1::text[]) AND f.kind = $2`
        : `SELECT r.source_id AS id, f.id AS source_file_id, f.file_name, f.imported_at
             FROM provider_payout_rows r JOIN source_files f ON f.id = r.source_file_id
            WHERE r.source_id = ANY($1::text[]) AND f.kind = $2`,
      [piece, kind],
    );
    for (const row of rows)
      known.push({
        id: row.id,
        sourceFileId: row.source_file_id,
        fileName: row.file_name,
        importedAt: new Date(row.imported_at).toISOString(),
      });
  }
  return known;
}

export async function knownSourceIds(
  db: Queryable,
  kind: SourceKind,
  ids: readonly string[],
): Promise<Set<string>> {
  return new Set((await knownSourceRows(db, kind, ids)).map((row) => row.id));
}
