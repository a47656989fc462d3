import { execFile } from 'node:child_process';
import {
  closeSync,
  existsSync,
  ftruncateSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BANKING, schemaErrors } from '../unit/domain/shared-fixtures';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const SAMPLES = `${BANKING}samples/`;
const dir = mkdtempSync(path.join(tmpdir(), 'banking-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(TSX, ['server/cli.ts', ...args], { cwd: ROOT, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

const batch = {
  messageId: 'CLI-TEST-0001',
  executionDate: '2099-06-01',
  debtor: { name: 'Consultas Exemplo Lda', iban: 'PT50003500010001234567805', bic: 'CGDIPTPL' },
  transactions: [
    {
      endToEndId: 'STL-1',
      creditorName: 'Inês Lobo',
      creditorIban: 'PT50000700009876543210144',
      amountCents: 12050,
      remittanceInformation: 'Honorários',
    },
  ],
};

describe('banking CLI', () => {
  it('statement parse --json prints the normalised entries, errors, balance and account', async () => {
    const r = await cli(
      'statement',
      'parse',
      `${SAMPLES}synthetic-statement-pt.camt.053.001.02.xml`,
      '--json',
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out).sort()).toEqual([
      'accountIban',
      'balance',
      'csv',
      'encoding',
      'entries',
      'errors',
      'format',
      'skipped',
      'statements',
    ]);
    expect(out.format).toBe('camt053');
    expect(out.accountIban).toBe('PT50003500010001234567805');
    expect(out.encoding).toBe('utf-8');
    expect(out.entries).toHaveLength(6);
    expect(out.balance).toEqual({ opening: 2000000, closing: 1849805, consistent: true });
    // One statement of one account, its six entries and its balances; nothing pending.
    expect(out.statements).toMatchObject([
      {
        accountIban: 'PT50003500010001234567805',
        firstEntry: 0,
        entryCount: 6,
        balance: { opening: 2000000, closing: 1849805, consistent: true },
      },
    ]);
    expect(out.skipped).toEqual([]);
  });

  it('statement parse takes --format and --mapping, and fails clearly', async () => {
    const csv = path.join(dir, 'odd.csv');
    writeFileSync(csv, 'Quando;Quanto\n07-05-2026;-3,00\n');
    const r = await cli(
      'statement',
      'parse',
      csv,
      '--format',
      'csv',
      '--mapping',
      '{"bookingDate":"Quando","amount":"Quanto"}',
      '--json',
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).entries[0].amountCents).toBe(-300);
    const missing = await cli('statement', 'parse', path.join(dir, 'nope.csv'), '--json');
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/cannot read .*nope\.csv/);
    const badFormat = await cli('statement', 'parse', csv, '--format', 'xls');
    expect(badFormat.code).toBe(2);
    expect(badFormat.stderr).toMatch(/unknown --format xls/);
  });

  it('sepa generate writes a schema-valid file that sepa check accepts', async () => {
    const input = path.join(dir, 'batch.json');
    const out = path.join(dir, 'out.xml');
    writeFileSync(input, JSON.stringify(batch));
    const r = await cli('sepa', 'generate', '--input', input, '--out', out, '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      ok: true,
      numberOfTransactions: 1,
      controlSumCents: 12050,
      executionDate: '2099-06-01',
    });
    const xml = readFileSync(out, 'utf8');
    expect(xml).toContain('<Nm>Ines Lobo</Nm>');
    expect(await schemaErrors([xml])).toEqual([]);
    const check = await cli('sepa', 'check', out, '--json');
    expect(check.code).toBe(0);
    expect(JSON.parse(check.stdout)).toEqual({ ok: true, schemaValid: true, schemaErrors: [], findings: [] });
    const v9 = path.join(dir, 'out9.xml');
    expect((await cli('sepa', 'generate', '--input', input, '--out', v9, '--version', '09')).code).toBe(0);
    expect(await schemaErrors([readFileSync(v9, 'utf8')], '09')).toEqual([]);
  });

  it('sepa generate prints the errors and writes nothing for an invalid batch', async () => {
    const input = path.join(dir, 'bad.json');
    const out = path.join(dir, 'bad.xml');
    writeFileSync(
      input,
      JSON.stringify({
        ...batch,
        transactions: [{ ...batch.transactions[0], creditorIban: 'PT50000700009876543210145' }],
      }),
    );
    const r = await cli('sepa', 'generate', '--input', input, '--out', out);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('STL-1: creditorIban INVALID_NATIONAL_CHECKSUM');
    expect(existsSync(out)).toBe(false);
  });

  it('sepa generate refuses a creditor IBAN outside SEPA; sepa check finds one', async () => {
    const brazil = 'BR1800360305000010009795493C1';
    const input = path.join(dir, 'brazil.json');
    const out = path.join(dir, 'brazil.xml');
    writeFileSync(
      input,
      JSON.stringify({ ...batch, transactions: [{ ...batch.transactions[0], creditorIban: brazil }] }),
    );
    const r = await cli('sepa', 'generate', '--input', input, '--out', out);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('STL-1: creditorIban IBAN_NOT_SEPA');
    expect(existsSync(out)).toBe(false);
    // A file written elsewhere with such an IBAN is schema-valid, but not a file we may send.
    const good = path.join(dir, 'good.xml');
    writeFileSync(input, JSON.stringify(batch));
    expect((await cli('sepa', 'generate', '--input', input, '--out', good)).code).toBe(0);
    writeFileSync(out, readFileSync(good, 'utf8').replace(batch.transactions[0]!.creditorIban, brazil));
    const check = await cli('sepa', 'check', out, '--json');
    expect(check.code).toBe(1);
    expect(JSON.parse(check.stdout)).toMatchObject({
      ok: false,
      schemaValid: true,
      findings: [
        {
          location: 'PmtInf[1]/CdtTrfTxInf[1]',
          field: 'CdtrAcct/Id/IBAN',
          code: 'IBAN_NOT_SEPA',
          endToEndId: 'STL-1',
        },
      ],
    });
  });

  it('sepa check reports EPC findings', async () => {
    const r = await cli('sepa', 'check', `${SAMPLES}pain.001.001.03.xml`, '--json');
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.schemaValid).toBe(true);
    expect(report.findings).toEqual([
      { location: 'PmtInf[1]', field: 'DbtrAcct/Id/IBAN', code: 'INVALID_IBAN' },
    ]);
  });

  it('reconcile matches the synthetic pair', async () => {
    const r = await cli(
      'reconcile',
      '--statement',
      `${SAMPLES}synthetic-statement-pt.camt.053.001.02.xml`,
      '--expected',
      `${SAMPLES}synthetic-payout-pt.pain.001.001.03.xml`,
      '--json',
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.matches).toHaveLength(3);
    expect(out.returns).toEqual([
      { entryId: 'L165', itemId: 'PAYOUT-2026-04-0001/STL-2026-04-DOC0311', reason: 'AC04' },
    ]);
    expect(out.unmatchedEntries).toEqual(['L127', 'L152']);
    expect(out.unmatchedItems).toEqual([]);
  });

  it('reconcile takes expected items as JSON and refuses bad ones', async () => {
    const expected = path.join(dir, 'expected.json');
    writeFileSync(
      expected,
      JSON.stringify([
        { id: 'acq-7781', type: 'payout', amountCents: 296040, date: '2026-05-05', reference: '7781' },
      ]),
    );
    const statement = `${SAMPLES}synthetic-statement-pt.camt.053.001.02.xml`;
    const r = await cli('reconcile', '--statement', statement, '--expected', expected, '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).matches).toEqual([
      { entryIds: ['L127'], itemIds: ['acq-7781'], method: 'reference', confidence: 1, differenceCents: 0 },
    ]);
    writeFileSync(expected, JSON.stringify([{ id: 'x', type: 'payout', amountCents: -1 }]));
    const bad = await cli('reconcile', '--statement', statement, '--expected', expected, '--json');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('expected item 0: amountCents INVALID_AMOUNT');
  });

  it('refuses non-regular files and files over 100 MB before reading them', async () => {
    // /dev/zero never ends: reading it first grew the process to 4 GB.
    const device = await cli('statement', 'parse', '/dev/zero');
    expect(device).toMatchObject({ code: 1, stdout: '' });
    expect(device.stderr).toBe('error: /dev/zero is not a regular file\n');
    const folder = await cli('sepa', 'check', dir);
    expect(folder.code).toBe(1);
    expect(folder.stderr).toBe(`error: ${dir} is not a regular file\n`);
    // A sparse file: 100 MiB + 1 byte on paper, nothing on disk; refused from its size alone.
    const big = path.join(dir, 'big.xml');
    const fd = openSync(big, 'w');
    ftruncateSync(fd, 100 * 1024 * 1024 + 1);
    closeSync(fd);
    for (const args of [
      ['statement', 'parse', big],
      ['sepa', 'check', big],
      ['sepa', 'generate', '--input', big, '--out', path.join(dir, 'never.xml')],
      ['reconcile', '--statement', big, '--expected', big],
    ]) {
      const r = await cli(...args);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`error: ${big} is larger than the 100 MiB limit (100.0 MiB)\n`);
    }
    rmSync(big);
  });

  it('sepa generate --out: a folder or an unwritable path gives a clear error and leaves nothing', async () => {
    const input = path.join(dir, 'out-batch.json');
    writeFileSync(input, JSON.stringify(batch));
    const target = path.join(dir, 'outputs');
    mkdirSync(target);
    const notAFolder = path.join(dir, 'out-batch.json', 'file.xml');
    const missingFolder = path.join(dir, 'no-such-folder', 'file.xml');
    const before = readdirSync(dir).sort();
    for (const [out, reason] of [
      [target, 'is a folder'],
      [notAFolder, 'ENOTDIR'],
      [missingFolder, 'ENOENT'],
    ] as const) {
      const r = await cli('sepa', 'generate', '--input', input, '--out', out);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`error: cannot write ${out}: ${reason}\n`);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect(readdirSync(dir).sort()).toEqual(before);
    expect(readdirSync(target)).toEqual([]);
  });

  it('sepa generate checks the batch JSON types and names the wrong field', async () => {
    const input = path.join(dir, 'typed.json');
    const out = path.join(dir, 'typed.xml');
    writeFileSync(input, JSON.stringify({ ...batch, batchBooking: 'false' }));
    const r = await cli('sepa', 'generate', '--input', input, '--out', out);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`error: batch ${input} is not valid:\n  batchBooking: expected a boolean\n`);
    expect(existsSync(out)).toBe(false);
    writeFileSync(
      input,
      JSON.stringify({
        ...batch,
        batchBookng: true,
        transactions: [{ ...batch.transactions[0], amountCents: '120.50' }],
      }),
    );
    const two = await cli('sepa', 'generate', '--input', input, '--out', out);
    expect(two.code).toBe(1);
    expect(two.stderr).toBe(
      `error: batch ${input} is not valid:\n` +
        '  transactions[0].amountCents: expected a number\n' +
        '  batchBookng: unknown field\n',
    );
    writeFileSync(input, JSON.stringify({ ...batch, batchBooking: false }));
    expect((await cli('sepa', 'generate', '--input', input, '--out', out)).code).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('<BtchBookg>false</BtchBookg>');
  });

  it('answers an unknown command with usage and exit code 2', async () => {
    const r = await cli('sepa', 'upload');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Usage:');
  });
});
