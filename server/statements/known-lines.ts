import type { KnownLine } from '../../contract/statement-import';
import type { Queryable } from '../db/client';

/**
 * The preview's question: which of these lines are already imported, and from which file (the earlier
 * upload's name). Answered by the unique index on `statement_lines.dedup_key`.
 */
export async function knownLines(db: Queryable, keys: readonly string[]): Promise<KnownLine[]> {
  const { rows } = await db.query<{
    key: string;
    statementFileId: string;
    fileName: string;
    importedAt: Date;
  }>(
    `SELECT l.dedup_key AS key, f.id AS "statementFileId", f.file_name AS "fileName", f.imported_at AS "importedAt"
       FROM statement_lines l
       JOIN statement_files f ON f.id = l.statement_file_id
      WHERE l.dedup_key = ANY($1::text[])
      ORDER BY l.dedup_key`,
    [keys],
  );
  return rows.map((row) => ({ ...row, importedAt: row.importedAt.toISOString() }));
}
