import type { ExportColumn } from '../../domain/export-files';
import type { Database } from '../../server/db/client';

/** An export column of the awkward-values table: its SQL type and the values its rows take in turn. */
export type AwkwardColumn = ExportColumn & { type: string; values: readonly unknown[] };

/** Every value of every column meets every other column's values at least once across the rows. */
export const awkwardRowCount = (columns: readonly AwkwardColumn[]) =>
  Math.max(...columns.map((c) => c.values.length)) * 3;

/** Creates `awkward (n, <columns>)` and fills it with `awkwardRowCount(columns)` rows. */
export async function createAwkwardTable(db: Database, columns: readonly AwkwardColumn[]): Promise<void> {
  await db.query(
    `CREATE TABLE awkward (n int PRIMARY KEY, ${columns.map((c) => `${c.key} ${c.type}`).join(', ')})`,
  );
  for (let n = 0; n < awkwardRowCount(columns); n++) {
    const values = columns.map(
      (c, i) => c.values[(n + Math.floor(n / c.values.length) * i) % c.values.length],
    );
    await db.query(
      `INSERT INTO awkward VALUES ($1, ${columns.map((c, i) => `$${i + 2}::${c.type}`).join(', ')})`,
      [n, ...values],
    );
  }
}
