import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Database } from './client';

const migrationsDir = fileURLToPath(new URL('./migrations/', import.meta.url));
// Any constant works; it only has to be the same for every instance migrating one database.
const MIGRATION_LOCK_KEY = 731_020_001;

export interface Migration {
  id: string;
  sql: string;
}

export function listMigrations(): Migration[] {
  return readdirSync(migrationsDir)
    .filter((name) => /^\d{4}_[a-z0-9_]+\.sql$/.test(name))
    .sort()
    .map((name) => ({ id: name.replace(/\.sql$/, ''), sql: readFileSync(migrationsDir + name, 'utf8') }));
}

/** Applies pending migrations, each in its own transaction; safe when several instances start at once. */
export async function migrate(db: Database): Promise<string[]> {
  // Under the lock too: IF NOT EXISTS does not stop two instances creating the table at the same moment
  // on a new database (one fails on the catalogue's unique index).
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
  });
  const applied: string[] = [];
  for (const migration of listMigrations()) {
    const done = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      const { rows } = await tx.query('SELECT 1 FROM schema_migrations WHERE id = $1', [migration.id]);
      if (rows.length > 0) return false;
      for (const statement of splitStatements(migration.sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (id) VALUES ($1)', [migration.id]);
      return true;
    });
    if (done) applied.push(migration.id);
  }
  return applied;
}

/**
 * PGlite's `query` takes one statement at a time, so migrations end each statement with `;` at the
 * end of a line; dollar-quoted bodies (functions) are kept whole.
 */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let current = '';
  let inDollar = false;
  for (const line of sql.split('\n')) {
    const trimmed = line.trim();
    if (!inDollar && (trimmed.startsWith('--') || trimmed === '')) continue;
    current += `${line}\n`;
    const dollarCount = line.split('$$').length - 1;
    if (dollarCount % 2 === 1) inDollar = !inDollar;
    if (!inDollar && trimmed.endsWith(';')) {
      statements.push(current.trim());
      current = '';
    }
  }
  if (current.trim()) statements.push(current.trim());
  return statements;
}
