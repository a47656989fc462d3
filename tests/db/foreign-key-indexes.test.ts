import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import { testDatabaseKinds } from '../support/databases';

/**
 * Deleting a parent row makes PostgreSQL look up every table that references it, once per deleted row
 * (`WHERE fk = $1`, with no other condition). Without an index that lookup can use, each is a sequential
 * scan of the child: deleting a SEPA file of 10,000 transfers scanned the statement-line matches 10,000
 * times (216 s in a bench). Partial indexes do not help unless their condition is only `fk IS NOT NULL`.
 *
 * Some references are held by statement-level triggers instead of keys (migrations 0029 and 0030,
 * decisions 0111 and 0113): their deletions look the referencing rows up by the same column, once per
 * statement, and need the same index. They are read from the triggers too.
 */

/** Tables the server deletes from, read from its SQL (a new DELETE brings its references into the rule). */
function tablesDeletedByServer(): string[] {
  const tables = new Set<string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.ts'))
        for (const match of readFileSync(path, 'utf8').matchAll(/DELETE FROM (\w+)/g)) tables.add(match[1]!);
    }
  };
  walk('server');
  return [...tables].sort();
}

interface ForeignKey {
  child: string;
  columns: string[];
  parent: string;
  on_delete: string;
}

/** Migration 0029's triggers, written for the SEPA links alone (0030's generic ones are read from the catalog). */
const SEPA_LINK_REFERENCES: ForeignKey[] = [
  {
    child: 'sepa_transaction_settlements',
    columns: ['settlement_id'],
    parent: 'settlements',
    on_delete: 'a',
  },
  {
    child: 'sepa_transaction_settlements',
    columns: ['sepa_transaction_id'],
    parent: 'sepa_transactions',
    on_delete: 'c',
  },
];

/** `references_deleted(child, column, referenced column, action)` → a key's pg_constraint.confdeltype. */
const ON_DELETE: Record<string, string> = { CASCADE: 'c', 'SET NULL': 'n', 'NO ACTION': 'a' };

interface Index {
  table: string;
  first_column: string;
  predicate: string | null;
}

describe.each(testDatabaseKinds())('foreign keys into deleted tables on $name', (kind) => {
  let db: Database;
  let keys: ForeignKey[];
  let byTriggers: ForeignKey[];
  let indexes: Index[];
  beforeAll(async () => {
    db = await kind.open();
    keys = (
      await db.query<ForeignKey>(
        `SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent,
                c.confdeltype::text AS on_delete,
                array(SELECT a.attname::text FROM unnest(c.conkey) k JOIN pg_attribute a
                        ON a.attrelid = c.conrelid AND a.attnum = k) AS columns
           FROM pg_constraint c WHERE c.contype = 'f'`,
      )
    ).rows;
    const deletionTriggers = (
      await db.query<{ parent: string; definition: string }>(
        `SELECT tgrelid::regclass::text AS parent, pg_get_triggerdef(oid) AS definition FROM pg_trigger
          WHERE tgfoid = 'references_deleted'::regproc AND (tgtype & 8) <> 0`,
      )
    ).rows;
    byTriggers = deletionTriggers.map(({ parent, definition }) => {
      const [child, column, , action] = [...definition.matchAll(/'([^']*)'/g)].map((m) => m[1]!);
      return { child: child!, columns: [column!], parent, on_delete: ON_DELETE[action!]! };
    });
    keys.push(...byTriggers, ...SEPA_LINK_REFERENCES);
    indexes = (
      await db.query<Index>(
        `SELECT i.indrelid::regclass::text AS table, a.attname::text AS first_column,
                pg_get_expr(i.indpred, i.indrelid) AS predicate
           FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]`,
      )
    ).rows;
  });
  afterAll(() => db.close());

  /** What a delete from these tables reaches: them, and what their ON DELETE CASCADE keys delete in turn. */
  function deletedWith(tables: string[]): Set<string> {
    const reached = new Set(tables);
    for (let grew = true; grew; ) {
      grew = false;
      for (const key of keys)
        if (key.on_delete === 'c' && reached.has(key.parent) && !reached.has(key.child)) {
          reached.add(key.child);
          grew = true;
        }
    }
    return reached;
  }

  const usableFor = (key: ForeignKey) =>
    indexes.some(
      (index) =>
        index.table === key.child &&
        key.columns.includes(index.first_column) &&
        (index.predicate === null || index.predicate === `(${index.first_column} IS NOT NULL)`),
    );

  it('finds the tables the server deletes from (the rule below is not vacuous)', () => {
    const deleted = deletedWith(tablesDeletedByServer());
    expect([...deleted]).toEqual(expect.arrayContaining(['sepa_files', 'sepa_transactions', 'settlements']));
    expect(keys.filter((key) => deleted.has(key.parent)).length).toBeGreaterThan(10);
    // The references held by triggers are among them, with their actions.
    expect(byTriggers).toEqual(
      expect.arrayContaining([
        {
          child: 'statement_line_matches',
          columns: ['sepa_transaction_id'],
          parent: 'sepa_transactions',
          on_delete: 'c',
        },
        { child: 'statement_line_history', columns: ['actor_id'], parent: 'users', on_delete: 'a' },
      ]),
    );
  });

  it('gives every reference to a row the server deletes an index its lookup can use', () => {
    const deleted = deletedWith(tablesDeletedByServer());
    const unindexed = keys
      .filter((key) => deleted.has(key.parent) && !usableFor(key))
      .map((key) => `${key.child} (${key.columns.join(', ')}) → ${key.parent}`)
      .sort();
    expect(unindexed).toEqual([]);
  });
});
