import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const serverDir = join(import.meta.dirname, '../../../server');
const LEDGER = 'finance/ledger.ts';

/** Server sources, without the seed (it creates rows in every status) and the migrations (history). */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'migrations' || name === 'seed' ? [] : sources(path);
    return /\.(ts|sql)$/.test(name) ? [path] : [];
  });
}

/**
 * SQL writing `settlements.status`: an UPDATE of settlements whose SET list names `status`, or an
 * INSERT into settlements whose column list does. The SET list ends where the statement goes on
 * (FROM, WHERE, RETURNING) or the string does.
 */
const UPDATE_SETTLEMENTS =
  /\bUPDATE\s+settlements\b(?:\s+(?:AS\s+)?\w+)?\s+SET\b([\s\S]*?)(?=\bFROM\b|\bWHERE\b|\bRETURNING\b|[`'";]|$)/gi;
const INSERT_SETTLEMENTS = /\bINSERT\s+INTO\s+settlements\b(?:\s+(?:AS\s+)?\w+)?\s*\(([^)]*)\)/gi;

function statusWrites(source: string): string[] {
  const updates = [...source.matchAll(UPDATE_SETTLEMENTS)].filter(([, set]) => /\bstatus\s*=/i.test(set!));
  const inserts = [...source.matchAll(INSERT_SETTLEMENTS)].filter(([, columns]) =>
    /\bstatus\b/i.test(columns!),
  );
  return [...updates, ...inserts].map(([statement]) => statement.replace(/\s+/g, ' ').trim());
}

describe('the ledger is the only writer of settlements.status (docs/decisions/0133)', () => {
  it('no server SQL outside the ledger writes the status', () => {
    const offenders = sources(serverDir)
      .filter((path) => relative(serverDir, path) !== LEDGER)
      .flatMap((path) =>
        statusWrites(readFileSync(path, 'utf8')).map((sql) => `${relative(serverDir, path)}: ${sql}`),
      );
    expect(offenders).toEqual([]);
  });

  it('finds the ledger’s own writes (the patterns are not vacuous)', () => {
    expect(statusWrites(readFileSync(join(serverDir, LEDGER), 'utf8'))).toHaveLength(3);
  });

  it('tells writes of the status from writes of other columns and from reads', () => {
    const writes = [
      `UPDATE settlements SET status = $2 WHERE id = $1`,
      `UPDATE settlements s\n   SET adjusted_cents = $3, status = change.status\n  FROM x`,
      `UPDATE settlements AS s SET updated_at = now(), status='PAID'`,
      'INSERT INTO settlements (professional_id, case_id, status) VALUES ($1, $2, $3)',
    ];
    for (const sql of writes) expect(statusWrites(sql), sql).toHaveLength(1);
    const others = [
      `UPDATE settlements SET invoice_file_id = $2, updated_at = $3 WHERE id = $1 AND status = 'SETTLED'`,
      `UPDATE sepa_files SET status = $2 WHERE id = $1`,
      `UPDATE settlements_archive SET status = $2`,
      'INSERT INTO settlements (professional_id, case_id) VALUES ($1, $2)',
      `SELECT status FROM settlements WHERE status = 'PAID'`,
    ];
    for (const sql of others) expect(statusWrites(sql), sql).toEqual([]);
  });
});
