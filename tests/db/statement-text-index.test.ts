import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import { SqlParams } from '../../server/db/list';
import { lineFactFilters } from '../../server/statements/lines';
import { testDatabaseKinds } from '../support/databases';

/**
 * The reconciliation table's `text` filter, as the lines list and the bulk actions build it
 * (`lineFactFilters`), can be answered from migration 0058's trigram indexes on both backends (decision
 * 0172): the plan PostgreSQL makes when it may not read the whole table names both. A filter rewritten into
 * an expression the indexes do not hold (another case function, the two columns joined) fails here, long
 * before the 1M-line bench would show it.
 */
describe.each(testDatabaseKinds())('the statement lines text filter on $name', (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await kind.open();
  }, 120_000);
  afterAll(async () => db?.close());

  const plan = async (text: string) => {
    const params = new SqlParams();
    const where = lineFactFilters(params, { text });
    return db.transaction(async (tx) => {
      await tx.query('SET LOCAL enable_seqscan = off');
      const { rows } = await tx.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT l.id FROM statement_lines l WHERE ${where.join(' AND ')}`,
        params.values,
      );
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
  };

  it('reads a word of three letters or more through both trigram indexes', async () => {
    for (const text of ['simões', 'COMISSAO TPA', '50%_x'])
      expect(await plan(text)).toMatch(
        /statement_lines_description_trgm_idx[\s\S]*statement_lines_counterparty_trgm_idx/,
      );
  });
});
