import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BANKING } from '../unit/domain/shared-fixtures';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');

function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(TSX, ['server/cli.ts', ...args], { cwd: ROOT, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('sepa status', () => {
  it('prints what a status report means, and refuses another message', async () => {
    const part = await cli(
      'sepa',
      'status',
      `${BANKING}samples/status-reports/pain.002.001.03_corporatejs_accepted-and-rejected-payments.xml`,
    );
    expect(part.code).toBe(0);
    expect(part.stdout.split('\n')).toEqual([
      'report 1540378 (2014-01-11T16:31:48+02:00) for file MsgId_110610: PARTIAL, file AVAILABLE',
      "rejected: TEST PMT: NARR See the bank's additional information (Viite virheellinen)",
      'rejected: block 20140102-123456-02 (every transfer not named above): DT01 Invalid date (Eräpäivä virheellinen)',
      '',
    ]);
    const json = await cli(
      'sepa',
      'status',
      'tests/fixtures/status-reports/pain002-group-rejected.xml',
      '--json',
    );
    expect(JSON.parse(json.stdout).interpretation).toMatchObject({
      outcome: 'REJECTED',
      fileStatus: 'UNAVAILABLE',
    });
    const camt = await cli('sepa', 'status', `${BANKING}samples/camt053.v2.minimal.xml`);
    expect([camt.code, camt.stderr]).toEqual([
      1,
      `error: ${BANKING}samples/camt053.v2.minimal.xml: line 1: NOT_PAIN002 BkToCstmrStmt\n`,
    ]);
  });
});
