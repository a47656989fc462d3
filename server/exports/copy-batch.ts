import type { Database } from '../db/client';
import { sqlLiteral } from '../db/client';
import { after, type KeysetPosition, type KeysetQuery, SqlParams, whereClause } from '../db/list';

/**
 * What the COPY exports share (decisions 0090, 0105): a keyset batch's clauses with the statement's
 * values inlined — COPY takes no parameters; the statements are the export's own, so every `$n` in them
 * is a parameter — and the short transaction each batch is read in.
 */

/** The batch's `FROM … WHERE … ORDER BY … LIMIT count` after `position`, values inlined by `inline`. */
export function batchClauses(
  query: Omit<KeysetQuery, 'select'>,
  position: KeysetPosition | null,
  count: number,
): { rest: string; order: string; inline: (statement: string) => string } {
  const params = new SqlParams();
  params.values.push(...query.params.values);
  const where = [...query.where];
  if (position)
    where.push(after(params, query.sort.sql, query.sort.type, query.id, query.order, position, query.idType));
  const order = `${query.sort.sql} ${query.order}, ${query.id} ${query.order}`;
  return {
    rest: `${query.from} ${whereClause(where)} ORDER BY ${order} LIMIT ${count}`,
    order,
    inline: (statement) =>
      statement.replace(/\$(\d+)/g, (_, n: string) => sqlLiteral(params.values[Number(n) - 1])),
  };
}

/**
 * One batch's COPY in a short transaction with PostgreSQL's JIT off (a batch is costed above
 * `jit_above_cost` and was compiled again for every batch: more CPU than the batch itself, decision
 * 0083), DateStyle ISO (dates and instants as text) and the shortest exact text of a float8.
 */
export async function copyBatch(
  db: Database,
  select: string,
  options: string,
  sink: (bytes: Uint8Array) => void,
): Promise<void> {
  await db.transaction(async (tx) => {
    if (!tx.copyOut) throw new Error('this database connection cannot COPY');
    await tx.query(
      `SELECT set_config('jit', 'off', true), set_config('DateStyle', 'ISO, YMD', true),
              set_config('extra_float_digits', '1', true)`,
    );
    await tx.copyOut(select, options, sink);
  });
}
