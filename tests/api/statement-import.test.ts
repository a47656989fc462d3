import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '../../contract/limits';
import { parseStatement } from '../../domain/statements/detect';
import type { Database } from '../../server/db/client';
import { testDatabaseKinds } from '../support/databases';
import { bearer, count, insertUser, issueToken, type RunningApi, startApi } from './harness';
import {
  askKnownLines,
  type CsvLine,
  finishedJob,
  importPath,
  importStatement,
  postStatement,
  previewOf,
  type StatementApi,
  statementCsv,
} from './statement-support';

const line = (day: number, cents: number, description = `TRF SEPA ${day}/${cents}`): CsvLine => ({
  date: `${String(day).padStart(2, '0')}-05-2026`,
  description,
  cents,
  counterparty: 'Clínica São João, Lda',
});

/** Ten movements of May 2026 (a doctor's payout, fees, the provider's payouts): amounts repeat. */
const MAY = [
  line(1, 250_00),
  line(1, -3_50, 'COMISSAO MANUTENCAO'),
  line(2, -120_50),
  line(3, 250_00),
  line(4, -3_50, 'COMISSAO MANUTENCAO'),
  line(5, 1_234_56),
  line(6, -120_50),
  line(7, 250_00),
  line(8, -45_00),
  line(9, 250_00),
];

describe.each(testDatabaseKinds())('importing bank statements on $name', (kind) => {
  let db: Database;
  let api: RunningApi;
  let client: StatementApi;
  let adminId: string;

  beforeAll(async () => {
    db = await kind.open();
    api = await startApi(db);
    adminId = await insertUser(db, { email: 'admin@demo.pt', admin: true, role: 'ADMIN' });
    client = { url: api.url, token: await issueToken(db, adminId) };
  }, 120_000);
  afterAll(async () => {
    await api?.stop();
    await db?.close();
  });

  /** Everything an import writes; a refused one must leave all of it as it was. */
  const written = async () => ({
    files: await count(db, 'statement_files'),
    lines: await count(db, 'statement_lines'),
    history: await count(db, 'statement_line_history'),
    audit: await count(db, `audit_log WHERE action = 'statement.imported'`),
  });

  const refusal = async (response: Response) => ({
    status: response.status,
    code: ((await response.json()) as { code: string }).code,
  });

  it('imports a statement once: the stored file, the statement, its lines and the audit row in one go', async () => {
    const bytes = statementCsv(MAY.slice(0, 6));
    const { status, job } = await importStatement(client, bytes, 'extrato-maio.csv');
    expect(status).toBe(202);
    expect(job).toMatchObject({
      status: 'DONE',
      phase: 'done',
      fileName: 'extrato-maio.csv',
      errorCode: null,
      result: { newLines: 6, duplicatesSkipped: 0 },
    });
    const { rows } = await db.query<{ lines: number; entries: number; format: string; uploaded_by: string }>(
      `SELECT line_count AS lines, entry_count AS entries, format, uploaded_by FROM statement_files WHERE id = $1`,
      [job!.result!.statementFileId],
    );
    expect(rows).toEqual([{ lines: 6, entries: 6, format: 'CSV', uploaded_by: adminId }]);
    const amounts = await db.query<{ cents: number }>(
      'SELECT bank_amount_cents AS cents FROM statement_lines WHERE statement_file_id = $1 ORDER BY line_number',
      [job!.result!.statementFileId],
    );
    expect(amounts.rows.map((r) => r.cents)).toEqual(MAY.slice(0, 6).map((l) => l.cents));
    expect(
      await count(db, `audit_log WHERE action = 'statement.imported' AND entity_id = $1`, [
        job!.result!.statementFileId,
      ]),
    ).toBe(1);
  });

  it('the same file again imports nothing: refused as already imported', async () => {
    const before = await written();
    const again = await postStatement(client, statementCsv(MAY.slice(0, 6)), 'extrato-maio (1).csv');
    expect(await refusal(again)).toEqual({ status: 409, code: 'STATEMENT_ALREADY_IMPORTED' });
    expect(await written()).toEqual(before);
  });

  it('an overlapping statement: the preview learns which lines are known and from which file; only the new ones go in', async () => {
    const overlapping = statementCsv(MAY.slice(3, 9));
    const [answer] = await askKnownLines(client, overlapping);
    expect(answer!.known.map((k) => k.key).sort()).toEqual(answer!.keys.slice(0, 3).sort());
    expect(new Set(answer!.known.map((k) => k.fileName))).toEqual(new Set(['extrato-maio.csv']));
    expect(new Set(answer!.known.map((k) => k.reason))).toEqual(new Set(['SAME_CONTENT']));

    const { job } = await importStatement(client, overlapping, 'extrato-maio-2.csv');
    expect(job).toMatchObject({ status: 'DONE', result: { newLines: 3, duplicatesSkipped: 3 } });
    expect(await count(db, 'statement_lines')).toBe(9);
  });

  it('two genuinely identical payments on one day both survive, in the file and across files', async () => {
    const twice = [line(12, -3_50, 'IMPOSTO DO SELO'), line(12, -3_50, 'IMPOSTO DO SELO'), line(12, 99_00)];
    const { job } = await importStatement(client, statementCsv(twice), 'selo.csv');
    expect(job).toMatchObject({ status: 'DONE', result: { newLines: 3, duplicatesSkipped: 0 } });
    // A later statement repeating the day with a third identical fee: only that third one is new.
    const thrice = [...twice.slice(0, 2), line(12, -3_50, 'IMPOSTO DO SELO'), line(12, 99_00)];
    const later = await importStatement(client, statementCsv(thrice), 'selo-2.csv');
    expect(later.job).toMatchObject({ status: 'DONE', result: { newLines: 1, duplicatesSkipped: 3 } });
    expect(await count(db, `statement_lines WHERE description = 'IMPOSTO DO SELO'`)).toBe(3);
  });

  it('a file whose every line is known already is refused as nothing new', async () => {
    const before = await written();
    // Different bytes (a different order and file), the same movements.
    const reordered = statementCsv([MAY[1]!, MAY[0]!]);
    expect(await refusal(await postStatement(client, reordered, 'de-novo.csv'))).toEqual({
      status: 409,
      code: 'STATEMENT_NOTHING_NEW',
    });
    expect(await written()).toEqual(before);
  });

  it('refuses what the preview did not see, what cannot be read, and bad parameters, changing nothing', async () => {
    const before = await written();
    const bytes = statementCsv([line(20, 10_00), line(21, 20_00)]);
    const preview = previewOf(bytes);
    const send = (path: string, body: Uint8Array, type = 'application/octet-stream') =>
      fetch(`${api.url}${path}`, {
        method: 'POST',
        headers: { ...bearer(client.token), 'content-type': type },
        body: new Uint8Array(body),
      });
    expect(
      await refusal(
        await send(importPath('x.csv', { ...preview, expectedLines: preview.expectedLines + 1 }), bytes),
      ),
    ).toEqual({ status: 409, code: 'STATEMENT_PREVIEW_MISMATCH' });
    expect(
      await refusal(
        await send(
          importPath('x.csv', { ...preview, expectedTotalCents: preview.expectedTotalCents - 1 }),
          bytes,
        ),
      ),
    ).toEqual({ status: 409, code: 'STATEMENT_PREVIEW_MISMATCH' });
    expect(
      await refusal(
        await send(
          importPath('x.txt', { expectedLines: 1, expectedTotalCents: 0 }),
          Buffer.from('nothing a bank would write\r\n'),
        ),
      ),
    ).toEqual({ status: 422, code: 'STATEMENT_UNREADABLE' });
    const broken = Buffer.from(
      'Data Movimento;Descrição;Montante\r\n20-05-2026;"TRF";10,00\r\n22-05-2026;"TRF";doze\r\n21-05-2026;"TRF";1,00\r\n',
    );
    expect(
      await refusal(
        await send(importPath('broken.csv', { expectedLines: 2, expectedTotalCents: 1100 }), broken),
      ),
    ).toEqual({
      status: 422,
      code: 'STATEMENT_HAS_ERRORS',
    });
    const badMapping = `${importPath('x.csv', preview)}&mapping=${encodeURIComponent('{"amount":')}`;
    expect((await send(badMapping, bytes)).status).toBe(400);
    const unknownField = `${importPath('x.csv', preview)}&mapping=${encodeURIComponent('{"saldo":3}')}`;
    expect((await send(unknownField, bytes)).status).toBe(400);
    expect(
      (await send(`/v2/admin/statements/imports?expectedLines=2&expectedTotalCents=3000`, bytes)).status,
    ).toBe(400);
    expect(
      (await send(`/v2/admin/statements/imports?fileName=x&expectedLines=2&expectedTotalCents=1e400`, bytes))
        .status,
    ).toBe(400);
    // Refused from the declared length, before any of the body is read: only 1 byte of it is ever sent,
    // so any end at all — the 413, or the connection dropped before it could be read — is the refusal;
    // a server that waited for the body would never answer and the test would time out.
    const tooBig = await new Promise<string>((resolve) => {
      const outgoing = request(`${api.url}${importPath('big.csv', preview)}`, {
        method: 'POST',
        headers: {
          ...bearer(client.token),
          'content-type': 'application/octet-stream',
          'content-length': String(MAX_FILE_BYTES + 1),
        },
      });
      outgoing.on('response', (response) => resolve(`answered ${response.resume().statusCode}`));
      outgoing.on('error', () => resolve('dropped before answering'));
      outgoing.write('x');
    });
    expect(['answered 413', 'dropped before answering']).toContain(tooBig);
    expect(await written()).toEqual(before);
  });

  it('an Idempotency-Key retry answers the same job; a different request under the key is refused', async () => {
    const bytes = statementCsv([line(22, 70_00), line(23, -70_00)]);
    const key = { 'idempotency-key': 'import-retry-1' };
    const first = await postStatement(client, bytes, 'retry.csv', key);
    expect(first.status).toBe(202);
    const { job } = (await first.json()) as { job: { id: string } };
    await finishedJob(client, job.id);
    const retry = await postStatement(client, bytes, 'retry.csv', key);
    expect(retry.status).toBe(202);
    expect(((await retry.json()) as { job: { id: string; status: string } }).job).toMatchObject({
      id: job.id,
      status: 'DONE',
    });
    const other = await postStatement(client, statementCsv([line(24, 1_00)]), 'other.csv', key);
    expect(await refusal(other)).toEqual({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(
      await count(db, `statement_files WHERE sha256 = encode(sha256($1::bytea), 'hex')`, [
        Buffer.from(bytes),
      ]),
    ).toBe(1);
  });

  it('the same file uploaded several times at once is imported exactly once', async () => {
    const bytes = statementCsv([line(25, 15_00), line(26, 16_00), line(27, -17_00)]);
    const responses = await Promise.all(
      Array.from({ length: 5 }, (_, i) => postStatement(client, bytes, `simultaneo-${i}.csv`)),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([202, 409, 409, 409, 409]);
    const accepted = responses.find((r) => r.status === 202)!;
    const { job } = (await accepted.json()) as { job: { id: string } };
    expect(await finishedJob(client, job.id)).toMatchObject({ status: 'DONE', result: { newLines: 3 } });
    for (const refused of responses.filter((r) => r.status === 409))
      expect(((await refused.json()) as { code: string }).code).toBe('STATEMENT_ALREADY_IMPORTED');
    expect(await count(db, `statement_lines WHERE bank_date BETWEEN '2026-05-25' AND '2026-05-27'`)).toBe(3);
  });

  it("a CSV whose header the guesser does not know imports with the admin's mapping, and only with it", async () => {
    const bytes = new Uint8Array(
      Buffer.from('Dia;Texto;Quantia\r\n02-06-2026;"TRF, consulta";45,00\r\n03-06-2026;"COMISSAO";-1,50\r\n'),
    );
    const mapping = { bookingDate: 0, description: 1, amount: 2, headerLine: 1, delimiter: ';' } as const;
    const parsed = parseStatement(bytes, { mapping });
    expect(parsed.entries.map((e) => e.amountCents)).toEqual([4500, -150]);
    const preview = { expectedLines: 2, expectedTotalCents: 4350 };
    const send = (path: string) =>
      fetch(`${api.url}${path}`, {
        method: 'POST',
        headers: { ...bearer(client.token), 'content-type': 'application/octet-stream' },
        body: bytes,
      });
    expect(await refusal(await send(importPath('sem-cabecalho.csv', preview)))).toEqual({
      status: 422,
      code: 'STATEMENT_UNREADABLE',
    });
    const withMapping = await send(
      `${importPath('sem-cabecalho.csv', preview)}&mapping=${encodeURIComponent(JSON.stringify(mapping))}`,
    );
    expect(withMapping.status).toBe(202);
    const { job } = (await withMapping.json()) as { job: { id: string } };
    expect(await finishedJob(client, job.id)).toMatchObject({ status: 'DONE', result: { newLines: 2 } });
  });

  it('matches at import: a payout named in the reference is MATCHED, one with the same amount and day SUGGESTED', async () => {
    await db.query(
      `INSERT INTO provider_payouts (provider_payout_id, amount_cents, payout_date)
       VALUES ('po_7Hk2', 31250, '2026-07-01'), ('po_9Zq4', 18000, '2026-07-02')`,
    );
    const bytes = new Uint8Array(
      Buffer.from(
        [
          'Data Movimento;Descrição;Referência;Montante',
          '01-07-2026;"TRF STRIPE PAYMENTS";"po_7Hk2";312,50',
          '02-07-2026;"TRF STRIPE PAYMENTS";"";180,00',
          '02-07-2026;"COMISSAO";"";-2,00',
          '',
        ].join('\r\n'),
      ),
    );
    const { job } = await importStatement(client, bytes, 'julho.csv');
    expect(job).toMatchObject({
      status: 'DONE',
      result: { newLines: 3, matched: 1, suggested: 1, unmatched: 1 },
    });
    const { rows } = await db.query<{
      cents: number;
      status: string;
      method: string | null;
      payout: string | null;
      state: string | null;
    }>(
      `SELECT l.bank_amount_cents AS cents, l.status, l.match_method AS method, p.provider_payout_id AS payout, m.state
         FROM statement_lines l
         LEFT JOIN statement_line_matches m ON m.statement_line_id = l.id
         LEFT JOIN provider_payouts p ON p.id = m.payout_id
        WHERE l.statement_file_id = $1 ORDER BY l.line_number`,
      [job!.result!.statementFileId],
    );
    expect(rows).toEqual([
      { cents: 31250, status: 'MATCHED', method: 'REFERENCE', payout: 'po_7Hk2', state: 'MATCHED' },
      {
        cents: 18000,
        status: 'SUGGESTED',
        method: 'AMOUNT_COUNTERPARTY_DATE',
        payout: 'po_9Zq4',
        state: 'SUGGESTED',
      },
      { cents: -200, status: 'UNMATCHED', method: null, payout: null, state: null },
    ]);
    // Each matched or suggested line's history: the upload (who imported it), then the matcher's decision
    // (no person), before → after as the line then was — written by one INSERT … SELECT (decision 0101).
    const { rows: decided } = await db.query<{ id: string; line_number: number }>(
      `SELECT id, line_number FROM statement_lines WHERE statement_file_id = $1 AND line_number IN (2, 3)
        ORDER BY line_number`,
      [job!.result!.statementFileId],
    );
    type HistoryItem = { action: string; actor: { id: string } | null; before: unknown; after: unknown };
    const historyOf = async (lineId: string) =>
      (
        (await (
          await fetch(`${api.url}/v2/admin/statements/lines/${lineId}/history`, {
            headers: bearer(client.token),
          })
        ).json()) as { items: HistoryItem[] }
      ).items;
    const imported = {
      status: 'UNMATCHED',
      matchMethod: null,
      notes: null,
      differenceCents: null,
      links: [],
    };
    const [matched, suggested] = [await historyOf(decided[0]!.id), await historyOf(decided[1]!.id)];
    expect(matched.map((item) => [item.action, item.actor?.id ?? null])).toEqual([
      ['IMPORTED', adminId],
      ['MATCHED', null],
    ]);
    expect(matched[1]).toMatchObject({
      before: imported,
      after: {
        status: 'MATCHED',
        matchMethod: 'REFERENCE',
        notes: null,
        links: [{ kind: 'PAYOUT', role: 'PAYMENT', state: 'MATCHED', allocatedCents: 31250, score: 1 }],
      },
    });
    expect(suggested.map((item) => item.action)).toEqual(['IMPORTED', 'SUGGESTED']);
    expect(suggested[1]).toMatchObject({
      before: imported,
      after: {
        status: 'SUGGESTED',
        matchMethod: 'AMOUNT_COUNTERPARTY_DATE',
        links: [{ kind: 'PAYOUT', state: 'SUGGESTED', allocatedCents: 18000 }],
      },
    });
    // The lines carry the matcher's decisions: the import wrote no history row (decision 0115).
    expect(await count(db, 'statement_line_history')).toBe(0);
    // What the matcher's entry says each line became is exactly what the next action finds it to be —
    // the suggestion's score (a fraction) too.
    for (const [line, decision] of [
      [decided[0]!, 'MATCHED'],
      [decided[1]!, 'SUGGESTED'],
    ] as const) {
      const unmatched = await fetch(`${api.url}/v2/admin/statements/lines/${line.id}/unmatch`, {
        method: 'POST',
        headers: bearer(client.token),
      });
      expect(unmatched.status).toBe(200);
      const after = await historyOf(line.id);
      expect(after.map((item) => item.action)).toEqual(['IMPORTED', decision, 'UNMATCHED']);
      expect(after[2]!.before).toEqual(after[1]!.after);
    }
    const [suggestion] = (suggested[1]!.after as { links: { score: number }[] }).links;
    expect(suggestion!.score).toBeGreaterThan(0);
    expect(suggestion!.score).toBeLessThan(1);
  });

  it('a payout split across two statements: the first part alone a DISCREPANCY, both MATCHED once the second is imported', async () => {
    // The statuses are settled from the counterparts the matcher read (decision 0112): the payout's
    // earlier part must still be found and settled with the new one, and a lone part must not pass
    // for the whole.
    await db.query(
      `INSERT INTO provider_payouts (provider_payout_id, amount_cents, payout_date)
       VALUES ('po_SPLIT8', 100000, '2026-08-01')`,
    );
    const csv = (date: string, euros: string) =>
      new Uint8Array(
        Buffer.from(
          [
            'Data Movimento;Descrição;Referência;Montante',
            `${date};"TRF STRIPE PAYMENTS";"po_SPLIT8";${euros}`,
            '',
          ].join('\r\n'),
        ),
      );
    const stateOf = async (fileId: string) =>
      (
        await db.query<{ status: string; difference: string | number | null; allocated: string | number }>(
          `SELECT l.status, l.difference_cents AS difference, m.allocated_cents AS allocated
             FROM statement_lines l JOIN statement_line_matches m ON m.statement_line_id = l.id
            WHERE l.statement_file_id = $1`,
          [fileId],
        )
      ).rows.map((r) => ({
        status: r.status,
        difference: Number(r.difference),
        allocated: Number(r.allocated),
      }));
    // The first part is not the payout's amount: the matcher leaves it, the admin matches it by hand.
    const first = (await importStatement(client, csv('02-08-2026', '600,00'), 'agosto-1.csv')).job!;
    expect(first.result).toMatchObject({ newLines: 1, matched: 0 });
    const { rows: parts } = await db.query<{ line: string; payout: string }>(
      `SELECT l.id AS line, p.id AS payout FROM statement_lines l, provider_payouts p
        WHERE l.statement_file_id = $1 AND p.provider_payout_id = 'po_SPLIT8'`,
      [first.result!.statementFileId],
    );
    const matched = await fetch(`${api.url}/v2/admin/statements/lines/${parts[0]!.line}/match`, {
      method: 'POST',
      headers: { ...bearer(client.token), 'content-type': 'application/json' },
      body: JSON.stringify({
        counterparts: [{ kind: 'PAYOUT', id: parts[0]!.payout }],
        note: 'Primeira parte',
      }),
    });
    expect(matched.status).toBe(200);
    expect(await stateOf(first.result!.statementFileId)).toEqual([
      { status: 'DISCREPANCY', difference: -40000, allocated: 60000 },
    ]);
    // The rest arrives in the next statement: the matcher links it by reference (what is left: 400,00).

    const second = (await importStatement(client, csv('03-08-2026', '400,00'), 'agosto-2.csv')).job!;
    expect(second.result).toMatchObject({ newLines: 1, matched: 1 });
    expect(await stateOf(second.result!.statementFileId)).toEqual([
      { status: 'MATCHED', difference: 0, allocated: 40000 },
    ]);
    expect(await stateOf(first.result!.statementFileId)).toEqual([
      { status: 'MATCHED', difference: 0, allocated: 60000 },
    ]);
  });

  it('a statement of several insert batches: every line stored exactly as read, cells with quotes, backslashes and braces too', async () => {
    // Four batches of LINES_PER_INSERT (5,000) and one more line: the batches are sent pipelined, each
    // as array literals the server writes itself (decision 0109); the lines and their ids are built in
    // slices of 20,000 (decision 0139), so one line is built in a second slice.
    const awkward = [
      'Pagamento "urgente", ref {7}',
      'C:\\pasta\\ficheiro',
      'NULL',
      '',
      'São João; Lda, {a,b}',
    ];
    const lines = Array.from({ length: 20_001 }, (_, i) => ({
      date: `${String((i % 28) + 1).padStart(2, '0')}-06-2026`,
      description: `${awkward[i % awkward.length]} #${i}`,
      cents: (i % 2 === 0 ? 1 : -1) * (100 + i),
      counterparty: i % 3 === 0 ? '' : `Clínica ${i}`,
    }));
    const bytes = statementCsv(lines);
    const { entries } = parseStatement(bytes);
    const { job } = await importStatement(client, bytes, 'extrato-junho.csv');
    expect(job).toMatchObject({ status: 'DONE', result: { newLines: 20_001, duplicatesSkipped: 0 } });
    const { rows } = await db.query<{
      line_number: number;
      description: string;
      counterparty_name: string | null;
      cents: number;
      bank_date: string;
    }>(
      `SELECT line_number, description, counterparty_name, bank_amount_cents AS cents, bank_date::text AS bank_date
         FROM statement_lines WHERE statement_file_id = $1 ORDER BY line_number`,
      [job!.result!.statementFileId],
    );
    expect(rows).toEqual(
      entries.map((entry) => ({
        line_number: entry.lineNumber,
        description: entry.description,
        counterparty_name: entry.counterpartyName,
        cents: entry.amountCents,
        bank_date: entry.bookingDate,
      })),
    );
    // The file is stored whole, under its own hash: a big file is read in a worker thread, and handing
    // its bytes over once emptied the upload (decision 0139) — stored empty, hashed as the empty file.
    const { rows: stored } = await db.query<{ sha256: string; size_bytes: number }>(
      `SELECT s.sha256, f.size_bytes FROM statement_files s JOIN stored_files f ON f.id = s.file_id WHERE s.id = $1`,
      [job!.result!.statementFileId],
    );
    expect(stored).toEqual([
      { sha256: createHash('sha256').update(bytes).digest('hex'), size_bytes: bytes.byteLength },
    ]);
    // The ids increase by booking date, then file order (the dates here cycle through the month), so the
    // primary key and the date-led indexes grow at their edges (decisions 0112, 0118).
    const { rows: byId } = await db.query<{ line_number: number }>(
      'SELECT line_number FROM statement_lines WHERE statement_file_id = $1 ORDER BY id',
      [job!.result!.statementFileId],
    );
    const byDate = [...rows].sort(
      (a, b) => a.bank_date.localeCompare(b.bank_date) || a.line_number - b.line_number,
    );
    expect(byId.map((row) => row.line_number)).toEqual(byDate.map((row) => row.line_number));
  }, 120_000);

  it('a statement of several insert batches is all or nothing: a later batch failing leaves nothing, and the same upload then imports every line', async () => {
    // 12,001 lines of one day, inserted in file order in batches of LINES_PER_INSERT (5,000), built in
    // slices with turns of the event loop between them (decision 0139): the line that fails is in the
    // third batch, after two batches went to the database.
    const FAILING = 'FALHA NO TERCEIRO LOTE';
    const lines = Array.from({ length: 12_001 }, (_, i) => ({
      date: '15-07-2026',
      description: i === 11_000 ? FAILING : `TRF SEPA lote ${i}`,
      cents: (i % 2 === 0 ? 1 : -1) * (200 + i),
      counterparty: '',
    }));
    const bytes = statementCsv(lines);
    const everything = async () => ({
      ...(await written()),
      statements: await count(db, 'bank_statements'),
      lineCounts: await count(db, 'statement_file_line_counts'),
      storedFiles: await count(db, 'stored_files'),
    });
    const before = await everything();
    await db.query(`CREATE FUNCTION fail_third_batch() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN RAISE EXCEPTION 'third batch'; END $$`);
    await db.query(`CREATE TRIGGER fail_third_batch BEFORE INSERT ON statement_lines FOR EACH ROW
                    WHEN (NEW.description = '${FAILING}') EXECUTE FUNCTION fail_third_batch()`);
    try {
      const failed = await importStatement(client, bytes, 'extrato-julho.csv');
      expect(failed.job).toMatchObject({ status: 'FAILED', errorCode: 'STATEMENT_IMPORT_FAILED' });
      expect(await everything()).toEqual(before);
    } finally {
      await db.query('DROP TRIGGER fail_third_batch ON statement_lines');
      await db.query('DROP FUNCTION fail_third_batch()');
    }
    const retried = await importStatement(client, bytes, 'extrato-julho.csv');
    expect(retried.job).toMatchObject({
      status: 'DONE',
      result: { newLines: 12_001, duplicatesSkipped: 0 },
    });
    expect(await count(db, `statement_lines WHERE description = '${FAILING}'`)).toBe(1);
  }, 120_000);

  it('an unknown job is 404', async () => {
    const response = await fetch(
      `${api.url}/v2/admin/statements/imports/00000000-0000-4000-8000-000000000000`,
      {
        headers: bearer(client.token),
      },
    );
    expect(await refusal(response)).toEqual({ status: 404, code: 'STATEMENT_IMPORT_NOT_FOUND' });
  });
});
