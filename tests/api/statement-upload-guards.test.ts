import { format } from 'node:util';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../server/db/client';
import { testDatabaseKinds } from '../support/databases';
import { bearer, count, insertUser, issueToken, type RunningApi, startApi } from './harness';
import { finishedJob, importPath, postStatement, type StatementApi, statementCsv } from './statement-support';

/**
 * Issue 27 items 6 and 7, decision 0122: an upload whose bytes show it cannot be imported is refused
 * before any job exists — answered 4xx with its code, nothing stored — instead of a job that fails
 * "try again" on every retry; and a failed import's log holds no bank data on either backend.
 */

/** A camt.053 of one EUR-or-not account whose entries pay named people on their IBANs. */
/** A camt.053 of one statement; `statementId` tells apart statements the bank issued separately. */
function camt(
  currency: string,
  entries: readonly { name: string; iban: string; text: string }[],
  statementId = 'S1',
) {
  const ntry = entries.map(
    (e, n) => `<Ntry><Amt Ccy="${currency}">${120 + n}.50</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts>
<BookgDt><Dt>2026-05-04</Dt></BookgDt><ValDt><Dt>2026-05-04</Dt></ValDt><AcctSvcrRef>REF${n}</AcctSvcrRef>
<NtryDtls><TxDtls><RltdPties><Cdtr><Nm>${e.name}</Nm></Cdtr><CdtrAcct><Id><IBAN>${e.iban}</IBAN></Id></CdtrAcct></RltdPties>
<RmtInf><Ustrd>${e.text}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`,
  );
  return bytesOf(`<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>
<GrpHdr><MsgId>M1</MsgId><CreDtTm>2026-05-31T10:00:00</CreDtTm></GrpHdr>
<Stmt><Id>${statementId}</Id><CreDtTm>2026-05-31T10:00:00</CreDtTm>
<Acct><Id><IBAN>PT50000201231234567890154</IBAN></Id><Ccy>${currency}</Ccy></Acct>
${ntry.join('\n')}
</Stmt></BkToCstmrStmt></Document>
`);
}

const bytesOf = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));
const PAYEE = {
  name: 'Leonor Vasconcelos Pimentel',
  iban: 'PT50003300004567890123437',
  text: 'Honorarios maio',
};

const mt940 = (currency: string) =>
  bytesOf(
    `:20:STMT1\r\n:25:PT50000201231234567890154\r\n:28C:1/1\r\n:60F:C260501${currency}100,00\r\n:61:260502C5,00NTRFREF//B1\r\n:86:Pagamento Maria\r\n:62F:C260502${currency}105,00\r\n`,
  );

const csvWithCurrency = (currency: string) =>
  bytesOf(
    `Data Movimento;Descrição;Montante;Moeda\r\n04-05-2026;"TRF Clínica";-120,50;${currency}\r\n05-05-2026;"TRF Clínica";30,00;${currency}\r\n`,
  );

const csvLine = (description: string) =>
  statementCsv([
    { date: '04-05-2026', description: 'TRF SEPA Clínica', cents: -120_50 },
    { date: '05-05-2026', description, cents: 30_00 },
  ]);

describe.each(testDatabaseKinds())('statement uploads refused from their bytes on $name', (kind) => {
  let db: Database;
  let api: RunningApi;
  let client: StatementApi;
  let before: Awaited<ReturnType<typeof traces>>;

  beforeAll(async () => {
    db = await kind.open();
    api = await startApi(db);
    const adminId = await insertUser(db, { email: 'admin@demo.pt', admin: true, role: 'ADMIN' });
    client = { url: api.url, token: await issueToken(db, adminId) };
    before = await traces();
  }, 120_000);
  afterAll(async () => {
    await api?.stop();
    await db?.close();
  });

  /** Everything an upload can leave behind: a job, a stored file, a statement, lines, an audit row. */
  const traces = async () => ({
    jobs: await count(db, 'statement_import_jobs'),
    stored: await count(db, 'stored_files'),
    statements: await count(db, 'statement_files'),
    lines: await count(db, 'statement_lines'),
    audit: await count(db, 'audit_log'),
  });

  /** The upload as the console sends it: the preview's count and total (any, the refusal comes first). */
  async function upload(bytes: Uint8Array, fileName: string) {
    const response = await fetch(
      `${api.url}${importPath(fileName, { expectedLines: 2, expectedTotalCents: 0 })}`,
      {
        method: 'POST',
        headers: { ...bearer(client.token), 'content-type': 'application/octet-stream' },
        body: new Uint8Array(bytes),
      },
    );
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it.each([
    ['an empty file', new Uint8Array(), 'extrato.csv', 422, { code: 'STATEMENT_EMPTY' }],
    ['a file of blank lines', bytesOf('\uFEFF\r\n  \r\n'), 'extrato.csv', 422, { code: 'STATEMENT_EMPTY' }],
    [
      'a ZIP named .sta',
      zipSync({ 'extrato.sta': csvLine('TRF') }),
      'extrato.sta',
      415,
      { code: 'STATEMENT_NOT_A_STATEMENT', container: 'zip' },
    ],
    [
      'a PDF named .csv',
      bytesOf('%PDF-1.7\n1 0 obj\n'),
      'extrato.csv',
      415,
      { code: 'STATEMENT_NOT_A_STATEMENT', container: 'pdf' },
    ],
    [
      'a PNG named .xml',
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
      'extrato.xml',
      415,
      { code: 'STATEMENT_NOT_A_STATEMENT', container: 'png' },
    ],
    [
      'a gzip named .txt',
      new Uint8Array([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 3]),
      'extrato.txt',
      415,
      { code: 'STATEMENT_NOT_A_STATEMENT', container: 'gzip' },
    ],
    [
      'a NUL inside a CSV description',
      csvLine('A\x00B'),
      'extrato.csv',
      422,
      { code: 'STATEMENT_CONTROL_CHARACTERS', line: 5 },
    ],
    [
      'an ESC inside a CSV description',
      csvLine('TRF \x1b[31m'),
      'extrato.csv',
      422,
      { code: 'STATEMENT_CONTROL_CHARACTERS', line: 5 },
    ],
    [
      'a camt whose text holds &#0;',
      camt('EUR', [{ ...PAYEE, text: 'Honorarios &#0; maio' }]),
      'extrato.xml',
      422,
      { code: 'STATEMENT_CONTROL_CHARACTERS', line: 9 },
    ],
    [
      'a camt whose name holds &#x1;',
      camt('EUR', [{ ...PAYEE, name: 'Leonor&#x1;' }]),
      'extrato.xml',
      422,
      { code: 'STATEMENT_CONTROL_CHARACTERS', line: 8 },
    ],
    [
      'a camt in HUF',
      camt('HUF', [PAYEE]),
      'extrato.xml',
      422,
      { code: 'STATEMENT_CURRENCY_UNSUPPORTED', currency: 'HUF' },
    ],
    [
      'an MT940 in DEM',
      mt940('DEM'),
      'extrato.sta',
      422,
      { code: 'STATEMENT_CURRENCY_UNSUPPORTED', currency: 'DEM' },
    ],
    [
      'a CSV whose currency column says HUF',
      csvWithCurrency('HUF'),
      'extrato.csv',
      422,
      { code: 'STATEMENT_CURRENCY_UNSUPPORTED', currency: 'HUF' },
    ],
  ] as const)(
    '%s is refused before a job exists, nothing stored',
    async (_, bytes, fileName, status, body) => {
      expect(await upload(bytes, fileName)).toEqual({ status, body });
      expect(await traces()).toEqual(before);
    },
  );

  it('the same files in EUR and without control characters are imported (the refusals are about those bytes)', async () => {
    for (const [bytes, name] of [
      [csvLine('TRF SEPA Clínica São João'), 'a.csv'],
      [csvWithCurrency('EUR'), 'b.csv'],
      [camt('EUR', [PAYEE]), 'c.xml'],
      [mt940('EUR'), 'd.sta'],
    ] as const) {
      const response = await postStatement(client, new Uint8Array(bytes), name);
      expect(response.status).toBe(202);
      const { job } = (await response.json()) as { job: { id: string } };
      expect((await finishedJob(client, job.id)).status).toBe('DONE');
    }
  });

  /** Two ways an import fails inside its transaction; each error carries the lines somewhere. */
  const FAILURES = [
    {
      what: 'a trigger quoting the line in its message',
      sqlstate: 'P0001',
      create: [
        `CREATE FUNCTION refuse_statement_line() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN RAISE EXCEPTION 'refused % % %', NEW.description, NEW.counterparty_name, NEW.counterparty_iban; END $$`,
        `CREATE TRIGGER refuse_statement_line BEFORE INSERT ON statement_lines
          FOR EACH ROW EXECUTE FUNCTION refuse_statement_line()`,
      ],
      drop: [
        'DROP TRIGGER refuse_statement_line ON statement_lines',
        'DROP FUNCTION refuse_statement_line()',
      ],
    },
    {
      // PostgreSQL's detail repeats the failing row; PGlite's error holds the INSERT and its parameters.
      what: 'a check constraint (the failing row in its detail)',
      sqlstate: '23514',
      create: [
        `ALTER TABLE statement_lines ADD CONSTRAINT refuse_statement_line CHECK (description NOT LIKE '%0418%') NOT VALID`,
      ],
      drop: ['ALTER TABLE statement_lines DROP CONSTRAINT refuse_statement_line'],
    },
  ];

  it.each(FAILURES)(
    'an import failing inside its transaction ($what) logs its job and error code, none of the bank data',
    async (failure) => {
      const payees = [
        {
          name: 'Beatriz Sampaio Calado',
          iban: 'PT50001800003400567890145',
          text: `Consulta dermatologia 0417 ${failure.sqlstate}`,
        },
        {
          name: 'Rodrigo Albuquerque Tinoco',
          iban: 'PT50003506510000123456789',
          text: `Reembolso exames 0418 ${failure.sqlstate}`,
        },
      ];
      for (const sql of failure.create) await db.query(sql);
      const written: string[] = [];
      const capture = (...args: unknown[]) => {
        written.push(format(...args));
        return true;
      };
      const spies = [
        ...(['log', 'info', 'warn', 'error', 'debug', 'trace'] as const).map((level) =>
          vi.spyOn(console, level).mockImplementation(capture),
        ),
        vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => capture(String(chunk))),
        vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => capture(String(chunk))),
      ];
      let jobId: string;
      try {
        const response = await postStatement(
          client,
          camt('EUR', payees, `S-${failure.sqlstate}`),
          `failing-${failure.sqlstate}.xml`,
        );
        expect(response.status).toBe(202);
        jobId = ((await response.json()) as { job: { id: string } }).job.id;
        const job = await finishedJob(client, jobId);
        expect(job).toMatchObject({ status: 'FAILED', errorCode: 'STATEMENT_IMPORT_FAILED' });
      } finally {
        for (const spy of spies) spy.mockRestore();
        for (const sql of failure.drop) await db.query(sql);
      }
      const log = written.join('\n');
      // The failure was logged, by job and error code …
      expect(log).toContain(`statement import ${jobId} failed`);
      expect(log).toContain(failure.sqlstate);
      // … and nothing of the statement: descriptions, names, IBANs, the INSERT or its parameters.
      for (const payee of payees)
        for (const value of [payee.name, payee.text, payee.iban]) expect(log).not.toContain(value);
      expect(log).not.toContain('PT50000201231234567890154');
      expect(log).not.toMatch(/INSERT INTO|unnest|params|Failing row/i);
    },
  );
});
