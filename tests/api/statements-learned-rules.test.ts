import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatementActionResult, StatementLineRow } from '../../contract/reconciliation';
import { testDatabaseKinds } from '../support/databases';
import {
  expectStatus,
  insertDoctor,
  insertSettlements,
  MONTH,
  type SepaWorld,
  startSepaWorld,
} from './sepa-support';
import { importStatement, lineStatus } from './statements-reconcile-support';

const LINES = '/v2/admin/statements/lines';

/**
 * Issue 32, learned rules (decision 0146, migration 0042): a line matched by hand teaches its
 * counterparty text → the counterpart's party, in the match's transaction and named in its audit row;
 * a later statement printing the same text is suggested that party's counterpart, the rule its reason.
 */
describe.each(testDatabaseKinds())('learned rules, on $name', (kind) => {
  let world: SepaWorld;
  beforeAll(async () => {
    world = await startSepaWorld(kind);
  }, 120_000);
  afterAll(async () => world?.stop());

  /** One SEPA file paying this doctor one settlement, through the API: its transfer and execution day. */
  const transferFor = async (doctorId: string, grossCents: number) => {
    await insertSettlements(world.db, world.customerId, doctorId, [{ grossCents }]);
    const { file } = await expectStatus<{ file: { id: string } }>(
      await world.call('POST', '/v2/admin/settlement/sepa/', {
        body: { referenceMonth: MONTH, professionalIds: [doctorId] },
        headers: { 'idempotency-key': `learned-${randomUUID()}` },
      }),
      200,
    );
    const { rows } = await world.db.query<{ id: string; amount_cents: string; day: string }>(
      `SELECT t.id, t.amount_cents, f.execution_date::text AS day
         FROM sepa_transactions t JOIN sepa_files f ON f.id = t.sepa_file_id WHERE f.id = $1`,
      [file.id],
    );
    return { id: rows[0]!.id, amountCents: Number(rows[0]!.amount_cents), day: rows[0]!.day };
  };
  const lineRow = async (fileId: string, lineId: string) => {
    const page = await expectStatus<{ items: StatementLineRow[] }>(
      await world.call('GET', `${LINES}?statementFileId=${fileId}`),
      200,
    );
    return page.items.find((l) => l.id === lineId)!;
  };

  // The bank prints the clinic's name, not the doctor's ("Dra. Teste n"): no name agrees. Or an MB WAY
  // phone as ActivoBank prints it, last four digits (decision 0151): no name at all.
  it.each([
    ['TRF SEPA P/ CLINICA DO SORRISO LDA', 'CLINICA SORRISO'],
    ['TRF MB WAY P/ *****4562', 'MBWAY *****4562'],
  ])(
    'a match by hand teaches the text; the next statement with it suggests the doctor, the rule its reason (%s)',
    async (text, learnedText) => {
      const doctor = await insertDoctor(world.db);
      const first = await transferFor(doctor.id, 12_000);
      const earlier = await importStatement(world, [
        { amountCents: -first.amountCents, bankDate: first.day, description: text },
      ]);
      const firstLine = earlier.lineIds[0]!;
      expect(await lineStatus(world.db, firstLine)).toBe('UNMATCHED');

      await expectStatus<StatementActionResult>(
        await world.call('POST', `${LINES}/${firstLine}/match`, {
          body: { counterparts: [{ kind: 'SEPA_TRANSFER', id: first.id }] },
        }),
        200,
      );
      const { rows: rules } = await world.db.query(
        'SELECT counterparty_text, party_id, times_matched FROM statement_learned_parties WHERE party_id = $1',
        [doctor.id],
      );
      expect(rules).toEqual([{ counterparty_text: learnedText, party_id: doctor.id, times_matched: 1 }]);
      const { rows: audit } = await world.db.query<{ after: { learnedRules?: unknown } }>(
        `SELECT after FROM audit_log WHERE action = 'statement.match' AND entity_id = $1`,
        [firstLine],
      );
      expect(audit.map((a) => a.after.learnedRules)).toEqual([[{ text: learnedText, partyId: doctor.id }]]);

      const second = await transferFor(doctor.id, 8_000);
      const later = await importStatement(world, [
        { amountCents: -second.amountCents, bankDate: second.day, description: text },
      ]);
      const row = await lineRow(later.fileId, later.lineIds[0]!);
      expect(row).toMatchObject({
        status: 'SUGGESTED',
        suggestion: {
          kind: 'SEPA_TRANSFER',
          id: second.id,
          reasons: { amountExact: true, learnedRule: true, learnedText },
        },
      });
      // The match picker says it too.
      const { candidates } = await expectStatus<{
        candidates: { id: string; reasons: { learnedRule: boolean; learnedText: string | null } }[];
      }>(await world.call('GET', `${LINES}/${later.lineIds[0]}/candidates`), 200);
      expect(candidates.find((c) => c.id === second.id)?.reasons).toMatchObject({
        learnedRule: true,
        learnedText,
      });
      expect(candidates.filter((c) => c.id !== second.id).every((c) => c.reasons.learnedText === null)).toBe(
        true,
      );
    },
  );

  it('an unmatch keeps what the match taught; a text then matched to another doctor names nobody', async () => {
    const text = 'TRF SEPA P/ CONSULTORIO CENTRAL';
    const [a, b] = [await insertDoctor(world.db), await insertDoctor(world.db)];
    const toA = await transferFor(a.id, 9_100);
    const toB = await transferFor(b.id, 9_300);
    const { lineIds } = await importStatement(world, [
      { amountCents: -toA.amountCents, bankDate: toA.day, description: text },
      { amountCents: -toB.amountCents, bankDate: toB.day, description: text },
    ]);
    const match = (lineId: string, id: string) =>
      world.call('POST', `${LINES}/${lineId}/match`, {
        body: { counterparts: [{ kind: 'SEPA_TRANSFER', id }] },
      });
    await expectStatus(await match(lineIds[0]!, toA.id), 200);
    await expectStatus(await world.call('POST', `${LINES}/${lineIds[0]}/unmatch`), 200);
    const rule = async () =>
      (
        await world.db.query(
          'SELECT party_id, times_matched, contradicted FROM statement_learned_parties WHERE counterparty_text = $1',
          ['CONSULTORIO CENTRAL'],
        )
      ).rows;
    expect(await rule()).toEqual([{ party_id: a.id, times_matched: 1, contradicted: false }]);
    await expectStatus(await match(lineIds[1]!, toB.id), 200);
    expect(await rule()).toEqual([{ party_id: a.id, times_matched: 2, contradicted: true }]);
    // The text is two doctors': a later line printing it is suggested neither.
    const next = await transferFor(b.id, 9_500);
    const later = await importStatement(world, [
      { amountCents: -next.amountCents, bankDate: next.day, description: text },
    ]);
    expect(await lineStatus(world.db, later.lineIds[0]!)).toBe('UNMATCHED');
  });
});
