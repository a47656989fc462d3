import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatementImportJob } from '../../contract/statement-import';
import type { Database } from '../../server/db/client';
import { testDatabaseKinds } from '../support/databases';
import { insertUser, issueToken, type RunningApi, startApi } from './harness';
import { askKnownLines, finishedJob, postStatement, previewOf, type StatementApi } from './statement-support';

/**
 * Issue 27: whatever pieces two accounts' statements are cut into — overlapping or not — and whatever
 * order they are imported in, the stored lines are each account's whole statement, every line once; and
 * before each import, `known-lines` says exactly which lines the import then skips.
 */

interface Movement {
  /** Day of March 2026. */
  day: number;
  cents: number;
  description: string;
  /** The bank's own reference, or none. */
  reference: string | null;
}

/** A valid Portuguese IBAN for a bank account number (the NIB's check digits, then the IBAN's "50"). */
function portugueseIban(account: number): string {
  const nib = `00350651${String(account).padStart(11, '0')}`;
  const check = 98n - ((BigInt(nib) * 100n) % 97n);
  return `PT50${nib}${String(check).padStart(2, '0')}`;
}

const euros = (cents: number) =>
  `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)},${String(Math.abs(cents) % 100).padStart(2, '0')}`;

/** A CSV naming no account, with a reference column (empty where the bank gives none). */
function csvOf(movements: readonly Movement[]): Uint8Array<ArrayBuffer> {
  const rows = movements.map(
    (m) =>
      `${String(m.day).padStart(2, '0')}-03-2026;"${m.description}";"${m.reference ?? ''}";${euros(m.cents)}`,
  );
  return new Uint8Array(
    Buffer.from(['Data Movimento;Descrição;Referência;Montante', ...rows, ''].join('\r\n')),
  );
}

const DAYS = 12;

/**
 * One account's statement: a few movements a day; amounts and texts from small sets, so identical
 * payments on one day (and across days) are common; some carry a unique bank reference.
 */
const movements = (tag: string): fc.Arbitrary<Movement[]> =>
  fc
    .array(
      fc.record({
        day: fc.integer({ min: 1, max: DAYS }),
        cents: fc.constantFrom(-780, -31, 2_500, 4_500),
        description: fc.constantFrom('COMISSAO MANUTENCAO', 'IMPOSTO DO SELO', 'TRF CONSULTA'),
        withReference: fc.boolean(),
      }),
      { minLength: 1, maxLength: 24 },
    )
    .map((drawn) =>
      drawn
        .map(({ withReference, ...m }, n) => ({ ...m, reference: withReference ? `BK-${tag}-${n}` : null }))
        .sort((a, b) => a.day - b.day),
    );

/** Day ranges covering 1..DAYS, each next one starting at most the day after the previous ends (overlaps allowed). */
const pieces: fc.Arbitrary<[number, number][]> = fc
  .array(fc.record({ length: fc.integer({ min: 1, max: 6 }), back: fc.integer({ min: 0, max: 3 }) }), {
    minLength: 1,
    maxLength: 5,
  })
  .map((steps) => {
    const ranges: [number, number][] = [];
    let start = 1;
    for (const { length, back } of steps) {
      const end = Math.min(DAYS, start + length - 1);
      ranges.push([start, end]);
      if (end === DAYS) return ranges;
      start = Math.max(1, end + 1 - back);
    }
    ranges.push([start, DAYS]);
    return ranges;
  });

const statement = (tag: string) => fc.record({ movements: movements(tag), pieces });

const signature = (m: Pick<Movement, 'day' | 'cents' | 'description' | 'reference'>) =>
  `${m.day}|${m.cents}|${m.description}|${m.reference ?? ''}`;

describe.each(testDatabaseKinds())('statement imports in pieces on $name', (kind) => {
  let db: Database;
  let api: RunningApi;
  let client: StatementApi;
  let run = 0;

  beforeAll(async () => {
    db = await kind.open();
    api = await startApi(db);
    const adminId = await insertUser(db, { email: 'admin@demo.pt', admin: true, role: 'ADMIN' });
    client = { url: api.url, token: await issueToken(db, adminId) };
  }, 120_000);
  afterAll(async () => {
    await api?.stop();
    await db?.close();
  });

  it('two accounts cut into overlapping and non-overlapping pieces, imported in any order: each whole, each line once', async () => {
    await fc.assert(
      fc.asyncProperty(
        statement('A'),
        statement('B'),
        fc.func(fc.integer()),
        async (first, second, shuffle) => {
          run++;
          // Fresh accounts each run: the runs do not see each other's lines.
          const accounts = [first, second].map((whole, n) => ({ whole, iban: portugueseIban(run * 2 + n) }));
          const uploads = accounts.flatMap(({ whole, iban }) =>
            whole.pieces.map(([from, to], n) => ({
              iban,
              name: `${iban}-${n}.csv`,
              bytes: csvOf(whole.movements.filter((m) => m.day >= from && m.day <= to)),
            })),
          );
          const ordered = uploads
            .map((upload, n) => ({ upload, rank: shuffle(n) }))
            .sort((a, b) => a.rank - b.rank)
            .map(({ upload }) => upload);
          for (const upload of ordered) {
            if (previewOf(upload.bytes).expectedLines === 0) continue;
            const [answer] = await askKnownLines(client, upload.bytes, upload.iban);
            const response = await postStatement(
              client,
              upload.bytes,
              upload.name,
              {},
              previewOf(upload.bytes),
              {
                accountIban: upload.iban,
              },
            );
            const body = (await response.json()) as { job?: StatementImportJob; code?: string };
            if (answer!.known.length === answer!.keys.length) {
              // Every line known: refused, as known-lines said (the same bytes again: already imported).
              expect(response.status).toBe(409);
              expect(['STATEMENT_NOTHING_NEW', 'STATEMENT_ALREADY_IMPORTED']).toContain(body.code);
              continue;
            }
            expect(response.status).toBe(202);
            const job = await finishedJob(client, body.job!.id);
            expect(job.result).toMatchObject({
              newLines: answer!.keys.length - answer!.known.length,
              duplicatesSkipped: answer!.known.length,
            });
          }
          for (const { whole, iban } of accounts) {
            const { rows } = await db.query<{
              day: number;
              cents: string | number;
              description: string;
              reference: string | null;
            }>(
              `SELECT extract(day FROM l.bank_date)::int AS day, l.bank_amount_cents AS cents, l.description,
                      l.bank_reference AS reference
                 FROM statement_lines l
                 JOIN bank_statements b ON b.statement_file_id = l.statement_file_id AND b.number = l.statement_number
                WHERE b.account_iban = $1`,
              [iban],
            );
            const stored = rows.map((row) => signature({ ...row, cents: Number(row.cents) })).sort();
            expect(stored).toEqual(whole.movements.map(signature).sort());
          }
        },
      ),
      // Recorded seed: the same cases on every run; change it to explore others.
      { numRuns: 15, seed: 20261127 },
    );
  }, 300_000);
});
