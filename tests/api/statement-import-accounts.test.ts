import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatementFileRow } from '../../contract/reconciliation';
import type { KnownLines, StatementAccounts } from '../../contract/statement-import';
import { parseStatement } from '../../domain/statements/detect';
import type { Database } from '../../server/db/client';
import { testDatabaseKinds } from '../support/databases';
import { bearer, count, insertUser, issueToken, type RunningApi, startApi } from './harness';
import {
  askKnownLines,
  importStatement,
  knownLinesQuestions,
  type Mt940Block,
  mt940File,
  postStatement,
  previewOf,
  type StatementApi,
} from './statement-support';

/**
 * A file's statements, their accounts and their balances (issue 27): every line belongs to an account,
 * statements are recognised and deduplicated as a bank would, their continuity is shown, and a balance
 * mismatch is the admin's decision. Each test uses its own accounts, so they do not see each other's lines.
 */

// Valid Portuguese IBANs (mod-97 and NIB check digits).
const ACCOUNT_A = 'PT50003506510000123456714';
const ACCOUNT_B = 'PT50000201231234567890154';
const ACCOUNT_C = 'PT50001800000000000000093';
const ACCOUNT_D = 'PT50003300000000000000008';
const ACCOUNT_E = 'PT50001000000000000000009';
const ACCOUNT_F = 'PT50003600000000000000088';
const ACCOUNT_G = 'PT50004500000000000000037';
const ACCOUNT_H = 'PT50000700000000000000026';

/** A CGD-style export: its preamble names the account by its number only (no IBAN), debits and credits apart. */
function cgdCsv(accountNumber: string, rows: readonly string[]): Uint8Array<ArrayBuffer> {
  const text = [
    'Consultar saldos e movimentos à ordem - 27-11-2026',
    `Conta ;${accountNumber} - EUR - Conta Extracto`,
    '',
    'Data mov.;Data valor;Descrição;Débito;Crédito',
    ...rows,
    '',
  ].join('\r\n');
  return new Uint8Array(Buffer.from(text, 'utf8'));
}

/** Whether the parsers give each MT940 block its own statement with its sequence (the parser work of issue 27). */
const parsersReadStatements = (() => {
  const block = (account: string): Mt940Block => ({
    account,
    statementId: 'PROBE',
    sequence: '1',
    opening: { date: '260501', cents: 0 },
    closing: { date: '260501', cents: 1 },
    lines: [{ date: '260501', cents: 1, text: 'X' }],
  });
  const { statements } = parseStatement(mt940File([block(ACCOUNT_A), block(ACCOUNT_B)]));
  return statements.length === 2 && statements[0]!.sequence !== null;
})();

/** A camt.053 of one account: one booked entry and one pending (Sts PDNG). */
function camtWithPending(account: string): Uint8Array<ArrayBuffer> {
  const entry = (cents: string, status: string, day: string) =>
    `<Ntry><Amt Ccy="EUR">${cents}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>${status}</Cd></Sts><BookgDt><Dt>${day}</Dt></BookgDt></Ntry>`;
  const xml = `<?xml version="1.0"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt><Stmt><Id>PEND-1</Id>
<Acct><Id><IBAN>${account}</IBAN></Id><Ccy>EUR</Ccy></Acct>
<Bal><Tp><CdOrPrtry><Cd>PRCD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">10.00</Amt><CdtDbtInd>CRDT</CdtDbtInd></Bal>
<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">25.00</Amt><CdtDbtInd>CRDT</CdtDbtInd></Bal>
${entry('15.00', 'BOOK', '2026-12-02')}
${entry('99.00', 'PDNG', '2026-12-03')}
</Stmt></BkToCstmrStmt></Document>`;
  return new Uint8Array(Buffer.from(xml, 'utf8'));
}

/** Whether the parsers list the pending entries they leave out (the parser work of issue 27). */
const parsersSkipPending = parseStatement(camtWithPending(ACCOUNT_G)).skipped.length === 1;

describe.each(testDatabaseKinds())('statements, their accounts and balances on $name', (kind) => {
  let db: Database;
  let api: RunningApi;
  let client: StatementApi;

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

  const written = async () => ({
    files: await count(db, 'statement_files'),
    statements: await count(db, 'bank_statements'),
    lines: await count(db, 'statement_lines'),
    audit: await count(db, `audit_log WHERE action = 'statement.imported'`),
  });
  const linesOf = (account: string) =>
    count(
      db,
      `statement_lines l JOIN bank_statements b
         ON b.statement_file_id = l.statement_file_id AND b.number = l.statement_number
       WHERE b.account_iban = $1`,
      [account],
    );
  const refusal = async (response: Response) => {
    const body = (await response.json()) as { code: string };
    return { status: response.status, code: body.code };
  };
  const fileRow = async (id: string): Promise<StatementFileRow> => {
    const response = await fetch(`${api.url}/v2/admin/statements/files/${id}`, {
      headers: bearer(client.token),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as StatementFileRow;
  };

  it("two accounts' CSVs that name no account: the second account's identical fee and stamp duty are imported too (issue 27, seen 1)", async () => {
    const rows = [
      '05-05-2026;05-05-2026;COMISSAO MANUTENCAO;7,80;',
      '05-05-2026;05-05-2026;IMPOSTO DO SELO;0,31;',
    ];
    const first = await importStatement(
      client,
      cgdCsv('0001234567890', rows),
      'cgd-a.csv',
      {},
      {
        accountIban: ACCOUNT_A,
      },
    );
    expect(first.job).toMatchObject({
      status: 'DONE',
      result: { newLines: 2, duplicatesSkipped: 0, statements: 1 },
    });
    // Spaces and lower case are the same IBAN.
    const second = await importStatement(
      client,
      cgdCsv('0009876543210', rows),
      'cgd-b.csv',
      {},
      {
        accountIban: 'pt50 0002 0123 1234 5678 9015 4',
      },
    );
    expect(second.job).toMatchObject({ status: 'DONE', result: { newLines: 2, duplicatesSkipped: 0 } });
    expect([await linesOf(ACCOUNT_A), await linesOf(ACCOUNT_B)]).toEqual([2, 2]);
    const [statement] = (await fileRow(second.job!.result!.statementFileId)).statements;
    expect(statement).toMatchObject({
      accountIban: ACCOUNT_B,
      periodStart: '2026-05-05',
      periodEnd: '2026-05-05',
    });
  });

  it('a file that names no account needs one, a valid IBAN; refused otherwise, with nothing written', async () => {
    const bytes = cgdCsv('0001234567890', ['06-05-2026;06-05-2026;TRF;;12,00']);
    const before = await written();
    expect(
      await refusal(await postStatement(client, bytes, 'sem-conta.csv', {}, previewOf(bytes), {})),
    ).toEqual({
      status: 422,
      code: 'STATEMENT_ACCOUNT_REQUIRED',
    });
    for (const accountIban of ['PT50003506510000123456715', 'PT50 0035', 'not an account', ''])
      expect(
        await refusal(
          await postStatement(client, bytes, 'sem-conta.csv', {}, previewOf(bytes), { accountIban }),
        ),
      ).toEqual({ status: 422, code: 'STATEMENT_ACCOUNT_INVALID' });
    expect(await written()).toEqual(before);
  });

  it("a statement whose balances do not add up is refused with its figures, then imported with the admin's note (seen 5)", async () => {
    const bytes = mt940File([
      {
        account: ACCOUNT_C,
        statementId: 'EXT-2026-05',
        sequence: '00005/001',
        opening: { date: '260501', cents: 100_000 },
        closing: { date: '260531', cents: 99_000 },
        lines: [{ date: '260505', cents: -780, reference: 'BR0505-1', text: 'COMISSAO MANUTENCAO' }],
      },
    ]);
    const before = await written();
    const refused = await postStatement(client, bytes, 'maio.sta');
    expect(refused.status).toBe(422);
    const body = (await refused.json()) as { code: string; statements: unknown[] };
    expect(body.code).toBe('STATEMENT_BALANCE_MISMATCH');
    expect(body.statements).toEqual([
      expect.objectContaining({
        index: 0,
        accountIban: ACCOUNT_C,
        openingBalanceCents: 100_000,
        closingBalanceCents: 99_000,
        entriesSumCents: -780,
        differenceCents: -220,
      }),
    ]);
    for (const mismatchNote of ['', ' ', 'x'.repeat(501), 'linha\u0007'])
      expect(
        (await postStatement(client, bytes, 'maio.sta', {}, previewOf(bytes), { mismatchNote })).status,
      ).toBe(400);
    expect(await written()).toEqual(before);

    const note = 'O banco confirmou uma comissão de 2,20 € em falta';
    const { job } = await importStatement(client, bytes, 'maio.sta', {}, { mismatchNote: note });
    expect(job).toMatchObject({ status: 'DONE', result: { newLines: 1, statements: 1, skipped: 0 } });
    const file = await fileRow(job!.result!.statementFileId);
    expect(file.statements).toEqual([
      expect.objectContaining({
        accountIban: ACCOUNT_C,
        balanceConsistent: false,
        mismatchNote: note,
        lineCount: 1,
      }),
    ]);
    const { rows } = await db.query<{ after: { mismatchNote?: string } }>(
      `SELECT after FROM audit_log WHERE action = 'statement.imported' AND entity_id = $1`,
      [job!.result!.statementFileId],
    );
    expect(rows.map((row) => row.after.mismatchNote)).toEqual([note]);
  });

  it('known-lines names the rule that recognised each line, and the import then skips exactly those lines', async () => {
    const csv = (rows: readonly string[]) =>
      new Uint8Array(Buffer.from(['Data Movimento;Descrição;Referência;Montante', ...rows, ''].join('\r\n')));
    const first = csv(['10-09-2026;"TRF CLIENTE";"BK-0910-1";250,00', '11-09-2026;"COMISSAO";"";-3,50']);
    expect(
      (await importStatement(client, first, 'set-1.csv', {}, { accountIban: ACCOUNT_D })).job,
    ).toMatchObject({
      status: 'DONE',
      result: { newLines: 2 },
    });
    // The next export repeats both (the reference one with a re-worded text), and brings one new line.
    const second = csv([
      '10-09-2026;"TRF CLIENTE LDA";"BK-0910-1";250,00',
      '11-09-2026;"COMISSAO";"";-3,50',
      '12-09-2026;"COMISSAO";"";-3,50',
    ]);
    const [answer] = await askKnownLines(client, second, ACCOUNT_D);
    expect(answer!.known.map(({ key, reason, fileName }) => ({ key, reason, fileName }))).toEqual(
      [
        { key: answer!.keys[0]!, reason: 'BANK_REFERENCE', fileName: 'set-1.csv' },
        { key: answer!.keys[1]!, reason: 'SAME_CONTENT', fileName: 'set-1.csv' },
      ].sort((a, b) => (a.key < b.key ? -1 : 1)),
    );
    // Another account asking the same lines knows none of them.
    expect((await askKnownLines(client, second, ACCOUNT_E))[0]!.known).toEqual([]);
    const { job } = await importStatement(client, second, 'set-2.csv', {}, { accountIban: ACCOUNT_D });
    expect(job).toMatchObject({ status: 'DONE', result: { newLines: 1, duplicatesSkipped: 2 } });
    const { rows } = await db.query<{ skipped: { line: number; reason: string }[] }>(
      'SELECT skipped_lines AS skipped FROM bank_statements WHERE statement_file_id = $1',
      [job!.result!.statementFileId],
    );
    expect(rows[0]!.skipped.map((s) => [s.line, s.reason])).toEqual([
      [2, 'BANK_REFERENCE'],
      [3, 'SAME_CONTENT'],
    ]);
    expect(await linesOf(ACCOUNT_D)).toBe(3);
  });

  it("the files list gives each statement's continuity: FIRST, CONTINUES, GAP with the difference, OVERLAP; the accounts list the latest", async () => {
    const month = (m: string, sequence: string, opening: number, lines: Mt940Block['lines']): Mt940Block => ({
      account: ACCOUNT_E,
      statementId: `EXT-2026-${m}`,
      sequence,
      opening: { date: `26${m}01`, cents: opening },
      closing: { date: `26${m}28`, cents: opening + lines.reduce((total, line) => total + line.cents, 0) },
      lines,
    });
    const may = month('05', '00005/001', 500_000, [{ date: '260505', cents: -1_000, text: 'COMISSAO' }]);
    const june = month('06', '00006/001', 499_000, [{ date: '260605', cents: 20_000, text: 'TRF CLIENTE' }]);
    const august = month('08', '00008/001', 510_000, [{ date: '260805', cents: -500, text: 'SELO' }]);
    // A second August export from the 5th: the stamp duty again (the same line), and a new transfer.
    const lateAugust: Mt940Block = {
      ...month('08', '00009/001', 510_000, [
        { date: '260805', cents: -500, text: 'SELO' },
        { date: '260820', cents: 7_000, text: 'TRF CLIENTE' },
      ]),
      statementId: 'EXT-2026-08-B',
      opening: { date: '260805', cents: 510_000 },
    };
    const continuity = [];
    for (const [name, block] of [
      ['maio.sta', may],
      ['junho.sta', june],
      ['agosto.sta', august],
      ['agosto-b.sta', lateAugust],
    ] as const) {
      const { job } = await importStatement(client, mt940File([block]), name);
      expect({ name, status: job?.status }).toEqual({ name, status: 'DONE' });
      const [statement] = (await fileRow(job!.result!.statementFileId)).statements;
      continuity.push({
        continuity: statement!.continuity,
        gapCents: statement!.gapCents,
        previousPeriodEnd: statement!.previousPeriodEnd,
      });
    }
    expect(continuity).toEqual([
      { continuity: 'FIRST', gapCents: null, previousPeriodEnd: null },
      { continuity: 'CONTINUES', gapCents: null, previousPeriodEnd: expect.stringMatching(/^2026-0[56]-/) },
      // June closed at 5 190,00 and August opens at 5 100,00: 90,00 are missing between them.
      { continuity: 'GAP', gapCents: -9_000, previousPeriodEnd: expect.stringMatching(/^2026-06-/) },
      { continuity: 'OVERLAP', gapCents: null, previousPeriodEnd: expect.stringMatching(/^2026-08-/) },
    ]);
    // The files list answers the same statements.
    const listed = await fetch(`${api.url}/v2/admin/statements/files?limit=200`, {
      headers: bearer(client.token),
    });
    const page = (await listed.json()) as { items: StatementFileRow[] };
    const ofAccount = page.items
      .flatMap((file) => file.statements)
      .filter((s) => s.accountIban === ACCOUNT_E);
    expect(ofAccount.map((s) => s.continuity).sort()).toEqual(['CONTINUES', 'FIRST', 'GAP', 'OVERLAP']);

    const accounts = await fetch(`${api.url}/v2/admin/statements/accounts`, {
      headers: bearer(client.token),
    });
    expect(accounts.status).toBe(200);
    const { items } = (await accounts.json()) as StatementAccounts;
    expect(items.find((account) => account.accountIban === ACCOUNT_E)).toMatchObject({
      statementCount: 4,
      lastPeriodEnd: expect.stringMatching(/^2026-08-/),
      lastClosingBalanceCents: 510_000 - 500 + 7_000,
    });
    expect(items.map((account) => account.accountIban)).toEqual(
      expect.arrayContaining([ACCOUNT_A, ACCOUNT_B]),
    );
  });

  it('the files list keeps its counts as lines are imported, ignored and deleted, without counting them', async () => {
    const rows = [
      '07-05-2026;07-05-2026;COMISSAO;2,00;',
      '08-05-2026;08-05-2026;TRF;;40,00',
      '09-05-2026;09-05-2026;SELO;0,08;',
    ];
    const { job } = await importStatement(
      client,
      cgdCsv('0005555555555', rows),
      'contagens.csv',
      {},
      {
        accountIban: ACCOUNT_G,
      },
    );
    const fileId = job!.result!.statementFileId;
    expect(await fileRow(fileId)).toMatchObject({ lineCount: 3, doneCount: 0 });
    const { rows: lines } = await db.query<{ id: string }>(
      'SELECT id FROM statement_lines WHERE statement_file_id = $1 ORDER BY line_number',
      [fileId],
    );
    const ignored = await fetch(`${api.url}/v2/admin/statements/lines/${lines[0]!.id}/ignore`, {
      method: 'POST',
      headers: { ...bearer(client.token), 'content-type': 'application/json' },
      body: JSON.stringify({ note: 'Comissão do banco' }),
    });
    expect(ignored.status).toBe(200);
    expect(await fileRow(fileId)).toMatchObject({ lineCount: 3, doneCount: 1 });
    await db.query('DELETE FROM statement_lines WHERE id = ANY($1::uuid[])', [[lines[0]!.id, lines[1]!.id]]);
    expect(await fileRow(fileId)).toMatchObject({ lineCount: 1, doneCount: 0 });
    expect(await count(db, 'statement_lines WHERE statement_file_id = $1', [fileId])).toBe(1);
  });

  it("known-lines: an identical payment of the day the previous statement was cut is new when the bank's sequences and balances chain", async () => {
    // The first statement of 5 May, imported; its bank identity as the parsers will read it (issue 27).
    const first = mt940File([
      {
        account: ACCOUNT_H,
        statementId: 'DIA-0505-1',
        sequence: '00001/001',
        opening: { date: '260505', cents: 100_000 },
        closing: { date: '260505', cents: 99_220 },
        lines: [{ date: '260505', cents: -780, text: 'COMISSAO MANUTENCAO' }],
      },
    ]);
    const { job } = await importStatement(client, first, 'dia-0505-1.sta');
    await db.query(
      `UPDATE bank_statements SET bank_statement_id = 'DIA-0505-1', sequence = '00001/001' WHERE statement_file_id = $1`,
      [job!.result!.statementFileId],
    );
    const [question] = knownLinesQuestions(first, null);
    const ask = async (over: Record<string, unknown>) => {
      const response = await fetch(`${api.url}/v2/admin/statements/known-lines`, {
        method: 'POST',
        headers: { ...bearer(client.token), 'content-type': 'application/json' },
        body: JSON.stringify({ ...question, ...over }),
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as KnownLines).known.map((k) => k.reason);
    };
    const second = {
      statementId: 'DIA-0505-2',
      sequence: '00002/001',
      openingBalanceCents: 99_220,
      closingBalanceCents: 98_440,
    };
    expect(await ask(second)).toEqual([]);
    // Balances that do not chain, or no sequence: the statements overlap on the 5th, the fee is the same line.
    expect(await ask({ ...second, openingBalanceCents: 100_000 })).toEqual(['SAME_CONTENT']);
    expect(await ask({ ...second, sequence: null })).toEqual(['SAME_CONTENT']);
    // The same statement asked again.
    expect(await ask({ statementId: 'DIA-0505-1', sequence: '00001/001' })).toEqual(['SAME_STATEMENT']);
  });

  it.skipIf(!parsersReadStatements)(
    'a genuinely new payment identical to one in the previous, non-overlapping statement is imported (seen 3)',
    async () => {
      // Two daily statements of one account cut on the same day: sequence 1 closes at 992,20, sequence 2
      // opens there; each holds a 7,80 fee of 5 May — two fees, as the balances show.
      const block = (sequence: string, opening: number): Mt940Block => ({
        account: ACCOUNT_F,
        statementId: `DIA-0505-${sequence}`,
        sequence,
        opening: { date: '260505', cents: opening },
        closing: { date: '260505', cents: opening - 780 },
        lines: [{ date: '260505', cents: -780, text: 'COMISSAO MANUTENCAO' }],
      });
      const first = await importStatement(client, mt940File([block('00001/001', 100_000)]), 'dia-1.sta');
      expect(first.job).toMatchObject({ status: 'DONE', result: { newLines: 1 } });
      const second = mt940File([block('00002/001', 99_220)]);
      expect((await askKnownLines(client, second, null))[0]!.known).toEqual([]);
      const { job } = await importStatement(client, second, 'dia-2.sta');
      expect(job).toMatchObject({ status: 'DONE', result: { newLines: 1, duplicatesSkipped: 0 } });
      expect(await linesOf(ACCOUNT_F)).toBe(2);
    },
  );

  it.skipIf(!parsersReadStatements)(
    'a multi-account MT940 stores one statement per account, each line with its own account (seen 4)',
    async () => {
      const block = (account: string, statementId: string): Mt940Block => ({
        account,
        statementId,
        sequence: '00010/001',
        opening: { date: '261001', cents: 10_000 },
        closing: { date: '261031', cents: 9_220 },
        lines: [{ date: '261005', cents: -780, text: 'COMISSAO MANUTENCAO' }],
      });
      const { job } = await importStatement(
        client,
        mt940File([block(ACCOUNT_A, 'OUT-A'), block(ACCOUNT_B, 'OUT-B')]),
        'outubro-duas-contas.sta',
      );
      expect(job).toMatchObject({ status: 'DONE', result: { newLines: 2, statements: 2 } });
      const file = await fileRow(job!.result!.statementFileId);
      expect(file.statements.map((s) => [s.accountIban, s.statementId, s.lineCount])).toEqual([
        [ACCOUNT_A, 'OUT-A', 1],
        [ACCOUNT_B, 'OUT-B', 1],
      ]);
    },
  );

  it.skipIf(!parsersReadStatements)(
    'the same statement again (another export of it): every line known as SAME_STATEMENT, nothing imported',
    async () => {
      const block: Mt940Block = {
        account: ACCOUNT_G,
        statementId: 'EXT-2026-11',
        sequence: '00011/001',
        opening: { date: '261101', cents: 0 },
        closing: { date: '261130', cents: 2_000 },
        lines: [
          { date: '261103', cents: 2_500, text: 'TRF CLIENTE' },
          { date: '261104', cents: -500, text: 'COMISSAO' },
        ],
      };
      const first = await importStatement(client, mt940File([block]), 'novembro.sta');
      expect(first.job).toMatchObject({ status: 'DONE', result: { newLines: 2 } });
      // Exported again: the bank words the movements differently, the statement is the same.
      const again = mt940File([
        { ...block, lines: block.lines.map((l) => ({ ...l, text: `${l.text} (2)` })) },
      ]);
      const [answer] = await askKnownLines(client, again, null);
      expect(answer!.known.map((k) => k.reason)).toEqual(['SAME_STATEMENT', 'SAME_STATEMENT']);
      const before = await written();
      const refused = await postStatement(client, again, 'novembro (2).sta');
      expect(await refusal(refused)).toEqual({ status: 409, code: 'STATEMENT_NOTHING_NEW' });
      expect(await written()).toEqual(before);
    },
  );

  it.skipIf(!parsersSkipPending)(
    'pending entries are not imported, and counted on the statement and in the result',
    async () => {
      const { job } = await importStatement(client, camtWithPending(ACCOUNT_G), 'pendente.xml');
      expect(job).toMatchObject({ status: 'DONE', result: { newLines: 1, skipped: 1 } });
      const file = await fileRow(job!.result!.statementFileId);
      expect(file.pendingSkipped).toBe(1);
      expect(file.statements.map((s) => s.pendingSkipped)).toEqual([1]);
    },
  );
});

/** The helpers the tests above rely on read what they say (so a skipped test is skipped for the parser only). */
describe('the MT940 test files', () => {
  it('parse as written: account, balances, the bank reference', () => {
    const parsed = parseStatement(
      mt940File([
        {
          account: ACCOUNT_C,
          statementId: 'S',
          sequence: '1',
          opening: { date: '260501', cents: 1_000 },
          closing: { date: '260531', cents: 220 },
          lines: [{ date: '260505', cents: -780, reference: 'BR-1', text: 'COMISSAO' }],
        },
      ]),
    );
    expect(parsed.errors).toEqual([]);
    expect(parsed.accountIban).toBe(ACCOUNT_C);
    expect(parsed.balance).toEqual({ opening: 1_000, closing: 220, consistent: true });
    expect(parsed.entries.map((e) => [e.bookingDate, e.amountCents, e.bankReference])).toEqual([
      ['2026-05-05', -780, 'BR-1'],
    ]);
  });
});
