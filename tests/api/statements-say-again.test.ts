import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatementActionResult, StatementLineRow } from '../../contract/reconciliation';
import { testDatabaseKinds } from '../support/databases';
import { expectStatus, insertDoctor, type SepaWorld, startSepaWorld } from './sepa-support';
import { importStatement, insertCustomerInvoice, insertNamedCustomer } from './statements-reconcile-support';

const LINES = '/v2/admin/statements/lines';
const DAY = '2026-05-08';

/**
 * Issue 32, decision 0179: after a person decides a line, the suggestions of the file's open lines of its
 * amount are said again over what is still open, and answered with the action's rows. João and Joana
 * Simões both print "J SIMOES"; each has an invoice of the amount that day, so the import is sure of
 * neither of two J SIMOES credits. Matched one to João's, the other is surely Joana's; undone, neither is
 * sure again. A line printed exactly as the decided one (a bank's copy) is never said sure; of two such lines
 * and one invoice, the import is sure of one (decision 0185). Said-again
 * lines are the matcher's, not the action's: its undo restores only what it decided.
 */
describe.each(testDatabaseKinds())('suggestions said again after a decision, on $name', (kind) => {
  let world: SepaWorld;
  let doctorId: string;
  beforeAll(async () => {
    world = await startSepaWorld(kind);
    doctorId = (await insertDoctor(world.db)).id;
  }, 120_000);
  afterAll(async () => world?.stop());

  /** João's and Joana's invoices of `cents`, and a statement of these texts at that amount. */
  const simoes = async (cents: number, texts: string[]) => {
    const invoiceOf = async (fullName: string) =>
      insertCustomerInvoice(world.db, await insertNamedCustomer(world.db, fullName), doctorId, cents, DAY);
    const joao = await invoiceOf('João Simões');
    const joana = await invoiceOf('Joana Simões');
    const file = await importStatement(
      world,
      texts.map((description) => ({ amountCents: cents, bankDate: DAY, description })),
    );
    return { joao, joana, ...file };
  };
  const rowOf = async (fileId: string, lineId: string) => {
    const page = await expectStatus<{ items: StatementLineRow[] }>(
      await world.call('GET', `${LINES}?statementFileId=${fileId}`),
      200,
    );
    return page.items.find((l) => l.id === lineId)!;
  };
  const act = async (lineId: string, verb: string, body?: unknown, status = 200) =>
    expectStatus<StatementActionResult>(
      await world.call('POST', `${LINES}/${lineId}/${verb}`, { body }),
      status,
    );
  const undo = async (actionId: string, status = 200) =>
    expectStatus<StatementActionResult>(
      await world.call('POST', `/v2/admin/statements/actions/${actionId}/undo`),
      status,
    );
  const matchTo = (lineId: string, invoiceId: string) =>
    act(lineId, 'match', { counterparts: [{ kind: 'INVOICE', id: invoiceId }] });

  it('a match leaves the other J SIMOES credit surely Joana’s, answered with the action; its undo makes neither sure again', async () => {
    const { joao, joana, fileId, lineIds } = await simoes(1_900, ['TRF SEPA J SIMOES', 'MB WAY J SIMOES']);
    const [first, second] = lineIds as [string, string];
    for (const id of lineIds) expect((await rowOf(fileId, id)).suggestion!.score).toBeLessThan(0.95);

    const matched = await matchTo(first, joao);
    const said = matched.lines.find((l) => l.id === second)!;
    expect(said).toMatchObject({
      status: 'SUGGESTED',
      suggestion: { kind: 'INVOICE', id: joana, score: 0.95 },
    });
    expect(await rowOf(fileId, second)).toMatchObject({ suggestion: { id: joana, score: 0.95 } });
    // Said by the matcher: its history names no one, and the action records only the line it decided.
    const { rows: history } = await world.db.query<{ actor_id: string | null }>(
      'SELECT actor_id FROM statement_line_history WHERE statement_line_id = $1',
      [second],
    );
    expect(history).toEqual([{ actor_id: null }]);
    const { rows: recorded } = await world.db.query<{ lines: { lineId: string }[] }>(
      'SELECT lines FROM statement_actions WHERE id = $1',
      [matched.action.id],
    );
    expect(recorded[0]!.lines.map((l) => l.lineId)).toEqual([first]);

    const undone = await undo(matched.action.id);
    expect(undone.lines.find((l) => l.id === first)).toMatchObject({ status: 'SUGGESTED' });
    expect((await rowOf(fileId, second)).suggestion!.score).toBeLessThan(0.95);
  });

  it('a line printed exactly as the one decided is not said sure: a bank’s copy looks like a second payment', async () => {
    const { joao, fileId, lineIds } = await simoes(2_100, ['TRF SEPA J SIMOES', 'TRF SEPA J SIMOES']);
    const [first, copy] = lineIds as [string, string];
    await matchTo(first, joao);
    const row = await rowOf(fileId, copy);
    expect(row.status).toBe('SUGGESTED');
    expect(row.suggestion!.score).toBeLessThan(0.95);
  });

  it('two lines printed alike and one invoice: the import says one of them sure, never the copy (decision 0185)', async () => {
    const rui = await insertCustomerInvoice(
      world.db,
      await insertNamedCustomer(world.db, 'Rui Costa'),
      doctorId,
      2_300,
      DAY,
    );
    const { fileId, lineIds } = await importStatement(world, [
      { amountCents: 2_300, bankDate: DAY, description: 'TRF SEPA RUI COSTA' },
      { amountCents: 2_300, bankDate: DAY, description: 'TRF SEPA RUI COSTA' },
    ]);
    const rows = await Promise.all(lineIds.map((id) => rowOf(fileId, id)));
    const sure = rows.filter((r) => (r.suggestion?.score ?? 0) >= 0.95);
    expect(sure.map((r) => r.suggestion!.id)).toEqual([rui]);
    const copy = rows.find((r) => r !== sure[0])!;
    expect(copy.suggestion?.score ?? 0).toBeLessThan(0.95);
    // Accepted, the invoice is paid; the copy is left open for a person, sure of nothing.
    await matchTo(sure[0]!.id, rui);
    expect((await rowOf(fileId, copy.id)).suggestion?.score ?? 0).toBeLessThan(0.95);
  });

  it('one of Rui’s two invoices matched, his other and Rita’s still tie for the next R MARQUES credit: not said sure; the import kept its rail judgement', async () => {
    const ruiId = await insertNamedCustomer(world.db, 'Rui Marques');
    const ruiFirst = await insertCustomerInvoice(world.db, ruiId, doctorId, 2_700, DAY);
    await insertCustomerInvoice(world.db, ruiId, doctorId, 2_700, DAY);
    const ritaId = await insertNamedCustomer(world.db, 'Rita Marques');
    await insertCustomerInvoice(world.db, ritaId, doctorId, 2_700, DAY);
    // The same text on Friday and on Monday: two payments, not a copy.
    const { fileId, lineIds } = await importStatement(world, [
      { amountCents: 2_700, bankDate: DAY, description: 'TRF SEPA R MARQUES' },
      { amountCents: 2_700, bankDate: '2026-05-11', description: 'TRF SEPA R MARQUES' },
    ]);
    // Two lines are too few to judge the file's rail: kept as not judged (decision 0184), and said again so.
    const { rows } = await world.db.query('SELECT kept_to_rail FROM statement_files WHERE id = $1', [fileId]);
    expect(rows).toEqual([{ kept_to_rail: null }]);
    const [first, second] = lineIds as [string, string];
    await matchTo(first, ruiFirst);
    // The match taught R MARQUES → Rui (decision 0146); said again with the rules as the import saw them.
    const { rows: rules } = await world.db.query<{ party_id: string }>(
      'SELECT party_id FROM statement_learned_parties WHERE NOT contradicted',
    );
    expect(rules.map((r) => r.party_id)).toContain(ruiId);
    // Rui's other invoice and Rita's still tie for the second R MARQUES credit: a person must choose.
    expect((await rowOf(fileId, second)).suggestion!.score).toBeLessThan(0.95);
  });
});
