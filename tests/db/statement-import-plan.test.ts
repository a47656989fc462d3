import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statementLineKeys } from '../../domain/statements/line-key';
import type { StatementEntry } from '../../domain/statements/types';
import type { Database } from '../../server/db/client';
import {
  lineFactsOf,
  type PlannedStatement,
  plannedKeys,
  recogniseFile,
} from '../../server/statements/import-plan';
import { PackedKeys } from '../../server/statements/packed-keys';
import { testDatabaseKinds } from '../support/databases';

/**
 * A file of several statements (issue 27): each statement's lines are judged against the file's earlier
 * statements by the same rules as against earlier files — the same account only, content only where the
 * periods overlap, the same statement twice entirely. Built by hand: no parser is involved.
 */

const ACCOUNT_A = 'PT50003506510000123456714';
const ACCOUNT_B = 'PT50000201231234567890154';

const entry = (day: string, cents: number, description: string, lineNumber: number): StatementEntry => ({
  bookingDate: day,
  valueDate: null,
  amountCents: cents,
  currency: 'EUR',
  description,
  counterpartyName: null,
  counterpartyIban: null,
  bankReference: null,
  endToEndId: null,
  batchId: null,
  kind: 'fee',
  returnReason: null,
  lineNumber,
});

function planned(
  number: number,
  account: string,
  period: [string, string],
  entries: StatementEntry[],
  bank: { statementId: string | null; sequence: string | null } = { statementId: null, sequence: null },
): PlannedStatement {
  return {
    number,
    identity: {
      accountIban: account,
      ...bank,
      periodStart: period[0],
      periodEnd: period[1],
      openingBalanceCents: null,
      closingBalanceCents: null,
    },
    currency: 'EUR',
    balance: null,
    firstEntry: 0,
    entryCount: entries.length,
    lines: lineFactsOf(entries),
    entriesSumCents: entries.reduce((total, e) => total + e.amountCents, 0),
    keys: PackedKeys.packing(statementLineKeys(account, entries)),
    pending: 0,
  };
}

describe.each(testDatabaseKinds())('a file of several statements on $name', (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await kind.open();
  });
  afterAll(async () => {
    await db.close();
  });

  it('recognises a line of an earlier statement of the file: same account and overlapping period only', async () => {
    const fee = (day: string, n: number) => entry(day, -780, 'COMISSAO', n);
    const statements = [
      planned(0, ACCOUNT_A, ['2026-05-01', '2026-05-10'], [fee('2026-05-05', 1), fee('2026-05-10', 2)]),
      // the other account's identical fee: its own line
      planned(1, ACCOUNT_B, ['2026-05-01', '2026-05-10'], [fee('2026-05-05', 3)]),
      // overlapping the first on the 10th: that fee is the same line, the 12th's is new
      planned(2, ACCOUNT_A, ['2026-05-10', '2026-05-20'], [fee('2026-05-10', 4), fee('2026-05-12', 5)]),
      // the first statement again, as the bank identifies it: everything known
      planned(3, ACCOUNT_A, ['2026-05-21', '2026-05-31'], [fee('2026-05-25', 6)], {
        statementId: 'S',
        sequence: '1',
      }),
      planned(4, ACCOUNT_A, ['2026-05-21', '2026-05-31'], [fee('2026-05-25', 7), fee('2026-05-26', 8)], {
        statementId: 'S',
        sequence: '1',
      }),
    ];
    const known = await recogniseFile(db, statements, plannedKeys(statements));
    expect(
      known.map((lines) => [...lines].map(([index, entry]) => [index, entry.reason, entry.statementFileId])),
    ).toEqual([
      [],
      [],
      [[0, 'SAME_CONTENT', null]],
      [],
      [
        [0, 'SAME_STATEMENT', null],
        [1, 'SAME_STATEMENT', null],
      ],
    ]);
  });
});
