import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import { testDatabaseKinds } from '../support/databases';
import { bearer, insertUser, issueToken, type RunningApi, startApi } from './harness';
import { importStatement, type StatementApi, statementCsv } from './statement-support';

/**
 * The statuses the import settles (decision 0112: from the counterparts the matcher read, with the
 * earlier parts of a payout looked up only when a MATCHED link named it) against an oracle that reads
 * the database afterwards: a line linked to a payout is MATCHED exactly when every line MATCHED to that
 * payout adds up to its amount, else a DISCREPANCY of the difference — whichever statement each part
 * came in, and whether the admin or the matcher linked it.
 */

interface PayoutPlan {
  amountCents: number;
  /** Matched by hand from an earlier statement, before this one: a part of the amount. */
  earlierPartCents: number | null;
  /** The new statement's line for it: what is left (the matcher links it), or a cent off (left alone). */
  exact: boolean;
}

const payoutPlan = fc
  .record({
    amountCents: fc.integer({ min: 2, max: 500_000 }),
    part: fc.option(fc.double({ min: 0.01, max: 0.99, noNaN: true }), { nil: null }),
    exact: fc.boolean(),
  })
  .map(
    ({ amountCents, part, exact }): PayoutPlan => ({
      amountCents,
      earlierPartCents:
        part === null ? null : Math.min(amountCents - 1, Math.max(1, Math.round(amountCents * part))),
      exact,
    }),
  );

describe.each(testDatabaseKinds())('statuses settled at import on $name', (kind) => {
  let db: Database;
  let api: RunningApi;
  let client: StatementApi;
  let round = 0;

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

  /** Every line MATCHED to a payout, with what the oracle says it should be. */
  const disagreements = async () =>
    (
      await db.query<{ id: string }>(
        `WITH parts AS (
           SELECT m.payout_id, sum(l.bank_amount_cents) AS lines FROM statement_line_matches m
             JOIN statement_lines l ON l.id = m.statement_line_id
            WHERE m.state = 'MATCHED' AND m.payout_id IS NOT NULL GROUP BY m.payout_id
         )
         SELECT l.id FROM statement_lines l
           JOIN statement_line_matches m ON m.statement_line_id = l.id AND m.state = 'MATCHED'
           JOIN provider_payouts p ON p.id = m.payout_id JOIN parts ON parts.payout_id = p.id
          WHERE l.status <> CASE WHEN parts.lines = p.amount_cents THEN 'MATCHED' ELSE 'DISCREPANCY' END
             OR l.difference_cents IS DISTINCT FROM parts.lines - p.amount_cents`,
      )
    ).rows;

  it('a line linked to a payout is MATCHED exactly when all its parts add up, across statements', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(payoutPlan, { minLength: 1, maxLength: 4 }), async (plans) => {
        round += 1;
        const day = `${String((round % 28) + 1).padStart(2, '0')}-${String((Math.floor(round / 28) % 12) + 1).padStart(2, '0')}-2031`;
        const reference = (k: number) => `po_R${round}K${k}`;
        const { rows: payouts } = await db.query<{ id: string }>(
          `INSERT INTO provider_payouts (provider_payout_id, amount_cents, payout_date)
           SELECT * FROM unnest($1::text[], $2::bigint[], $3::date[]) RETURNING id`,
          [
            plans.map((_, k) => reference(k)),
            plans.map((p) => p.amountCents),
            plans.map(() => `${day.slice(6)}-${day.slice(3, 5)}-${day.slice(0, 2)}`),
          ],
        );
        // The earlier parts: a statement the matcher cannot match (not the payout's amount), matched by hand.
        const earlier = plans.flatMap((p, k) =>
          p.earlierPartCents === null ? [] : [{ k, cents: p.earlierPartCents }],
        );
        if (earlier.length > 0) {
          const bytes = statementCsv(
            earlier.map(({ k, cents }) => ({
              date: day,
              description: `TRF STRIPE PARTE ${reference(k)}`,
              cents,
            })),
          );
          const { job, code } = await importStatement(client, bytes, `antes-${round}.csv`);
          expect([job?.status, code]).toEqual(['DONE', undefined]);
          const { rows: lines } = await db.query<{ id: string; line_number: number }>(
            'SELECT id, line_number FROM statement_lines WHERE statement_file_id = $1 ORDER BY line_number',
            [job!.result!.statementFileId],
          );
          for (const [n, { k }] of earlier.entries()) {
            const response = await fetch(`${api.url}/v2/admin/statements/lines/${lines[n]!.id}/match`, {
              method: 'POST',
              headers: { ...bearer(client.token), 'content-type': 'application/json' },
              body: JSON.stringify({ counterparts: [{ kind: 'PAYOUT', id: payouts[k]!.id }], note: 'Parte' }),
            });
            expect(response.status).toBe(200);
          }
        }
        // The new statement: what is left of each payout (or a cent more), named in the description.
        const bytes = statementCsv(
          plans.map((p, k) => ({
            date: day,
            // Not the earlier part's words: the same words, day and amount would be the same bank line.
            description: `TRF STRIPE RESTO ${reference(k)}`,
            cents: p.amountCents - (p.earlierPartCents ?? 0) + (p.exact ? 0 : 1),
          })),
        );
        const { job, code } = await importStatement(client, bytes, `depois-${round}.csv`);
        expect([job?.status, code]).toEqual(['DONE', undefined]);
        expect(job!.result!.matched).toBe(plans.filter((p) => p.exact).length);
        expect(await disagreements()).toEqual([]);
        // Payouts whose rest came in: every part MATCHED, nothing over the amount.
        const { rows: settled } = await db.query<{ reference: string; statuses: string[] }>(
          `SELECT p.provider_payout_id AS reference, array_agg(l.status ORDER BY l.status) AS statuses
             FROM provider_payouts p JOIN statement_line_matches m ON m.payout_id = p.id AND m.state = 'MATCHED'
             JOIN statement_lines l ON l.id = m.statement_line_id
            WHERE p.provider_payout_id = ANY($1::text[]) GROUP BY p.provider_payout_id`,
          [plans.map((_, k) => reference(k))],
        );
        for (const [k, plan] of plans.entries()) {
          const row = settled.find((r) => r.reference === reference(k));
          const parts = (plan.earlierPartCents === null ? 0 : 1) + (plan.exact ? 1 : 0);
          const expected = plan.exact ? 'MATCHED' : 'DISCREPANCY';
          expect(row?.statuses ?? []).toEqual(Array.from({ length: parts }, () => expected));
        }
      }),
      {
        numRuns: 12,
        // The cases that matter always run: a payout's rest arriving (the same cents as its first part
        // too), a rest a cent off, and an untouched payout paid whole beside one paid in parts.
        examples: [
          [[{ amountCents: 2, earlierPartCents: 1, exact: true }]],
          [[{ amountCents: 10_000, earlierPartCents: 6_000, exact: false }]],
          [
            [
              { amountCents: 5_000, earlierPartCents: null, exact: true },
              { amountCents: 5_000, earlierPartCents: 2_000, exact: true },
            ],
          ],
        ],
      },
    );
  }, 240_000);
});
