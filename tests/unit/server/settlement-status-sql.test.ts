import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqlParams } from '../../../server/db/list';
import { statusFilter, storedStatus } from '../../../server/finance/settlement-status-sql';

const serverDir = join(import.meta.dirname, '../../../server');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'migrations' ? [] : sources(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** SQL that compares a stored status with PENDING_TRANSFER: since migration 0033 it matches nothing. */
const STORED_PENDING_TRANSFER =
  /\bstatus\s*(?:=|<>|!=)\s*'PENDING_TRANSFER'|\bIN\s*\([^)]*'PENDING_TRANSFER'/g;

describe('PENDING_TRANSFER is read through settlement-status-sql only (decision 0119)', () => {
  it('no server SQL compares a stored status with PENDING_TRANSFER', () => {
    const offenders = sources(serverDir).flatMap((path) =>
      [...readFileSync(path, 'utf8').matchAll(STORED_PENDING_TRANSFER)].map(
        (match) => `${relative(serverDir, path)}: ${match[0]}`,
      ),
    );
    expect(offenders).toEqual([]);
  });

  it('the pattern finds such SQL (it is not vacuous)', () => {
    const samples = [
      `WHERE s.status = 'PENDING_TRANSFER'`,
      `AND status <> 'PENDING_TRANSFER'`,
      `s.status IN ('SETTLED', 'PENDING_TRANSFER')`,
    ];
    for (const sample of samples) expect(sample.match(STORED_PENDING_TRANSFER)).not.toBeNull();
    expect(`row.status === 'PENDING_TRANSFER'`.match(STORED_PENDING_TRANSFER)).toBeNull();
  });

  it('stores PENDING_TRANSFER as SETTLED and every other status as it is', () => {
    expect(storedStatus('PENDING_TRANSFER')).toBe('SETTLED');
    expect(storedStatus('SETTLED')).toBe('SETTLED');
    expect(storedStatus('PAID')).toBe('PAID');
  });

  it('filters SETTLED and PENDING_TRANSFER by the live link, on the stored status', () => {
    // Written out here, not taken from the module: a wrong predicate there must not make its own
    // expectation. Whitespace is not part of the rule.
    const liveLink =
      'EXISTS (SELECT 1 FROM sepa_transaction_settlements lv WHERE lv.settlement_id = s.id AND (CASE WHEN lv.live THEN true END) = true)';
    const filter = (...statuses: Parameters<typeof statusFilter>[1]) => {
      const params = new SqlParams();
      const where = statusFilter(params, statuses).map((sql) => sql.replace(/\s+/g, ' '));
      return { where, values: params.values };
    };
    expect(filter('PENDING_TRANSFER')).toEqual({
      where: [`s.status = $1::text`, liveLink],
      values: ['SETTLED'],
    });
    expect(filter('SETTLED')).toEqual({
      where: [`s.status = $1::text`, `NOT ${liveLink}`],
      values: ['SETTLED'],
    });
    expect(filter('SETTLED', 'PAID')).toEqual({
      where: [`s.status = ANY($1::text[])`, `(s.status <> 'SETTLED' OR NOT ${liveLink})`],
      values: [['SETTLED', 'PAID']],
    });
    expect(filter('SETTLED', 'PENDING_TRANSFER')).toEqual({
      where: [`s.status = $1::text`],
      values: ['SETTLED'],
    });
    expect(filter('PAID')).toEqual({ where: [`s.status = $1::text`], values: ['PAID'] });
  });
});
