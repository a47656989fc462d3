import type { SourceFileRow, SourceKind } from '../../contract/source-import';
import type { Queryable } from '../db/client';
import { exactPage, type KeysetQuery, SqlParams } from '../db/list';

/** `GET /v2/admin/sources/files`: the imported payouts and invoices files, newest import first. */

interface FileRow {
  id: string;
  kind: SourceKind;
  file_name: string;
  imported_at: Date;
  imported_by: string | null;
  row_count: number;
  new_rows: number;
  duplicates_skipped: number;
  total_cents: string | number;
  control_totals_checked: boolean;
}

export async function listSourceFiles(
  db: Queryable,
  query: { kind?: SourceKind | undefined; limit: number; cursor?: string | undefined },
) {
  const params = new SqlParams();
  const keyset: KeysetQuery = {
    select: `f.id, f.kind, f.file_name, f.imported_at, coalesce(u.full_name, u.name) AS imported_by, f.row_count,
             f.new_rows, f.duplicates_skipped, f.total_cents, f.control_totals_checked`,
    from: 'FROM source_files f LEFT JOIN users u ON u.id = f.imported_by',
    where: query.kind ? [`f.kind = ${params.add(query.kind)}`] : [],
    params,
    sort: { sql: 'f.imported_at', type: 'timestamptz' },
    id: 'f.id',
    order: 'desc',
  };
  const page = await exactPage<FileRow>(db, keyset, {
    sort: 'importedAt',
    order: 'desc',
    cursor: query.cursor,
    limit: query.limit,
  });
  return { items: page.rows.map(fileRowOf), nextCursor: page.nextCursor, total: page.total };
}

function fileRowOf(row: FileRow): SourceFileRow {
  return {
    id: row.id,
    kind: row.kind,
    fileName: row.file_name,
    importedAt: new Date(row.imported_at).toISOString(),
    importedBy: row.imported_by,
    rows: row.row_count,
    newRows: row.new_rows,
    duplicatesSkipped: row.duplicates_skipped,
    totalCents: Number(row.total_cents),
    controlTotals: row.control_totals_checked ? 'checked' : 'not',
  };
}
