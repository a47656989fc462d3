import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FinanceSearch, StatementsSearch } from '../../contract/money-search';
import { testDatabaseKinds } from '../support/databases';
import { camt053, importThroughApi } from './sepa-statement-support';
import {
  expectStatus,
  insertDoctor,
  insertSettlements,
  MONTH,
  type SepaWorld,
  startSepaWorld,
} from './sepa-support';

interface Generated {
  file: { id: string; msgId: string };
}

/**
 * The palette's searches of the money records (issue 29 point 10, decision 0131), over HTTP through the
 * routes the console calls: a SEPA file by its MsgId or a prefix of it (exact first), a transfer by
 * EndToEndId, a doctor with settlements by name, a statement file by name, a line by amount however it
 * is typed and by counterparty; hostile text refused with 400 before any SQL.
 */
describe.each(testDatabaseKinds())('the palette’s money search on $name', (kind) => {
  let world: SepaWorld;
  let file: Generated['file'];
  let endToEndId: string;
  let doctorName: string;
  let lineId: string;
  let statementFileId: string;
  let fileName: string;
  const finance = async (q: string) =>
    expectStatus<FinanceSearch>(
      await world.call('GET', `/v2/admin/search/finance?${new URLSearchParams({ q })}`),
      200,
    );
  const statements = async (q: string) =>
    expectStatus<StatementsSearch>(
      await world.call('GET', `/v2/admin/search/statements?${new URLSearchParams({ q })}`),
      200,
    );

  beforeAll(async () => {
    world = await startSepaWorld(kind);
    const doctor = await insertDoctor(world.db);
    await insertSettlements(world.db, world.customerId, doctor.id, [{ grossCents: 5000 }]);
    file = (
      await expectStatus<Generated>(
        await world.call('POST', '/v2/admin/settlement/sepa/', {
          body: { referenceMonth: MONTH, professionalIds: [doctor.id] },
          headers: { 'idempotency-key': 'money-search-1' },
        }),
        200,
      )
    ).file;
    const detail = await expectStatus<{ transfers: { endToEndId: string; professionalName: string }[] }>(
      await world.call('GET', `/v2/admin/settlement/sepa/${file.id}`),
      200,
    );
    endToEndId = detail.transfers[0]!.endToEndId;
    doctorName = detail.transfers[0]!.professionalName;
    const lines = await importThroughApi(
      world,
      camt053([
        { cents: -4530, date: '2026-05-04', text: 'Compra' },
        { cents: 12000, date: '2026-05-05', text: 'Recebido' },
      ]),
    );
    lineId = lines.find((l) => l.bankAmountCents === -4530)!.id;
    await world.db.query(
      `UPDATE statement_lines SET counterparty_name = 'Farmácia Central Lda' WHERE id = $1`,
      [lineId],
    );
    const row = await world.db.query<{ statement_file_id: string; file_name: string }>(
      'SELECT l.statement_file_id, f.file_name FROM statement_lines l JOIN statement_files f ON f.id = l.statement_file_id WHERE l.id = $1',
      [lineId],
    );
    statementFileId = row.rows[0]!.statement_file_id;
    fileName = row.rows[0]!.file_name;
  }, 120_000);
  afterAll(async () => world?.stop());

  it('finds a SEPA file by its whole MsgId, by a prefix and in lower case', async () => {
    for (const q of [file.msgId, file.msgId.slice(0, 12), file.msgId.toLowerCase()]) {
      const found = await finance(q);
      expect(found.sepaFiles.map((f) => f.id)).toEqual([file.id]);
    }
    expect((await finance('PAG-202610')).sepaFiles).toEqual([]);
  });

  it('finds a transfer by EndToEndId with the file that holds it', async () => {
    const found = await finance(endToEndId);
    expect(found.transfers).toEqual([
      expect.objectContaining({ endToEndId, sepaFileId: file.id, msgId: file.msgId, amountCents: 4200 }),
    ]);
  });

  it('finds a doctor with settlements by the start of the name or a word of the full name', async () => {
    // insertDoctor names a doctor `doctorN`, full name `Dra. Teste N`.
    for (const q of [doctorName, 'teste'])
      expect((await finance(q)).doctors).toEqual([
        expect.objectContaining({ name: doctorName, settlementCount: 1 }),
      ]);
    expect((await finance('zzz-nobody')).doctors).toEqual([]);
  });

  it('finds a statement line by its amount typed as people type it, in either direction', async () => {
    for (const q of ['45,30', '45.30', '€45,30', '-45,30']) {
      const found = await statements(q);
      expect(found.lines.map((l) => l.id)).toEqual([lineId]);
      expect(found.lines[0]).toMatchObject({ statementFileId, amountCents: -4530 });
    }
    expect((await statements('120')).lines.map((l) => l.amountCents)).toEqual([12000]);
    expect((await statements('45')).lines).toEqual([]);
  });

  it('finds a statement line by its counterparty and a file by its name', async () => {
    expect((await statements('central')).lines.map((l) => l.id)).toEqual([lineId]);
    expect((await statements(fileName.slice(0, 10))).files.map((f) => f.id)).toContain(statementFileId);
  });

  it('takes LIKE wildcards literally', async () => {
    expect((await finance('%%')).sepaFiles).toEqual([]);
    expect((await statements('__')).files).toEqual([]);
  });

  it.each([
    ['a repeated q', 'q=SEPA&q=PAG'],
    ['a limit above 10', 'q=SEPA&limit=11'],
    ['a limit that is not a number', 'q=SEPA&limit=abc'],
  ])('refuses %s with 400 on both routes', async (_, query) => {
    for (const path of ['/v2/admin/search/finance', '/v2/admin/search/statements']) {
      const response = await world.call('GET', `${path}?${query}`);
      expect(response.status).toBe(400);
      expect((await response.json()).code).toBe('VALIDATION_ERROR');
    }
  });

  it.each([
    ['a NUL byte', `SEPA\u0000`],
    ['a text too long', 'S'.repeat(81)],
    ['one letter', 'S'],
    ['nothing', ''],
  ])('refuses %s with 400 on both routes', async (_, q) => {
    for (const path of ['/v2/admin/search/finance', '/v2/admin/search/statements']) {
      const response = await world.call('GET', `${path}?${new URLSearchParams({ q })}`);
      expect(response.status).toBe(400);
      expect((await response.json()).code).toBe('VALIDATION_ERROR');
    }
  });
});
