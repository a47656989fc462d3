// Issue 27, parser side: every line belongs to an account, each statement of a file is its own,
// a file cut short is an error with its line, pending entries are skipped and listed, returns and fees
// are read in every format. The repro files are in tests/fixtures/statements/real/made-here-*.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { nibIbanIn } from '../../../domain/statements/account';
import { parseCamt053 } from '../../../domain/statements/camt053';
import { parseCsvStatement } from '../../../domain/statements/csv';
import { decodeBytes } from '../../../domain/statements/decode';
import { parseStatement } from '../../../domain/statements/detect';
import { parseMt940 } from '../../../domain/statements/mt940';
import { sample } from './shared-fixtures';

const REAL = fileURLToPath(new URL('../../fixtures/statements/real/', import.meta.url));
const real = (name: string) => new Uint8Array(readFileSync(`${REAL}${name}`));
const summary = (r: ReturnType<typeof parseStatement>) =>
  r.statements.map((s) => ({ ...s, balance: s.balance && { ...s.balance } }));

describe('every line belongs to an account', () => {
  it("reads a CGD account line's NIB as its IBAN (PT50 + NIB), so two accounts' identical fees stay apart", () => {
    const a = parseStatement(real('made-here-cgd-nib-account-a.csv'));
    const b = parseStatement(real('made-here-cgd-nib-account-b.csv'));
    expect([a.errors, b.errors]).toEqual([[], []]);
    expect(a.statements.map((s) => s.accountIban)).toEqual(['PT50003509990009876543280']);
    expect(b.statements.map((s) => s.accountIban)).toEqual(['PT50003509990001234567870']);
    expect(a.accountIban).toBe('PT50003509990009876543280');
    // The same fee and stamp duty on the same day in both files: only the account tells them apart.
    const fees = (r: typeof a) =>
      r.entries.filter((e) => e.kind === 'fee').map((e) => [e.bookingDate, e.amountCents]);
    expect(fees(a)).toEqual(fees(b));
    expect(fees(a)).toEqual([
      ['2026-06-30', -780],
      ['2026-06-30', -31],
    ]);
  });

  it("a CSV's account column splits its rows into one statement per run of one account", () => {
    const csv =
      'Número de conta;Data;Descrição;Valor\n' +
      'PT50 0035 0999 0009 8765 4328 0;01-06-2026;COMISSAO;-7,80\n' +
      ';02-06-2026;IMPOSTO DO SELO;-0,31\n' +
      '0035 0999 00012345678 70;01-06-2026;COMISSAO;-7,80\n' +
      '0035 0999 00012345678 70;03-06-2026;IMPOSTO DO SELO;-0,31\n' +
      'PT50003509990009876543280;04-06-2026;TRF;5,00\n';
    const r = parseCsvStatement(csv);
    expect(r.errors).toEqual([]);
    expect(
      r.statements.map((s) => [s.accountIban, s.firstEntry, s.entryCount, s.periodStart, s.periodEnd]),
    ).toEqual([
      ['PT50003509990009876543280', 0, 2, '2026-06-01', '2026-06-02'],
      ['PT50003509990001234567870', 2, 2, '2026-06-01', '2026-06-03'],
      ['PT50003509990009876543280', 4, 1, '2026-06-04', '2026-06-04'],
    ]);
    expect(r.accountIban).toBe('PT50003509990009876543280');
  });

  it('accepts a NIB only when its check digits make the IBAN valid, and only a run of exactly 21 digits', () => {
    expect(nibIbanIn('Conta ;0035 0999 00098765432 80 - EUR - …')).toBe('PT50003509990009876543280');
    expect(nibIbanIn('003509990009876543280')).toBe('PT50003509990009876543280');
    // The issue's own example has wrong check digits: no account rather than a wrong one.
    expect(nibIbanIn('Conta ;0035 0999 00098765432 10 - EUR')).toBeNull();
    expect(nibIbanIn('1 0035 0999 00098765432 80')).toBeNull();
    expect(nibIbanIn('0035 0999 00098765432 80 1')).toBeNull();
    const csv = 'Conta ;0035 0999 00098765432 10 - EUR\nData mov.;Descrição;Valor\n01-06-2026;X;1,00\n';
    expect(parseCsvStatement(csv).statements[0]!.accountIban).toBeNull();
  });
});

const MT940_TWO = new TextDecoder().decode(real('made-here-mt940-two-accounts-return-fee.sta'));

describe('MT940: one statement per :20: block', () => {
  it('gives each block its account, :20:, :28C:, currency, period and balance, entries in file order', () => {
    const r = parseMt940(MT940_TWO);
    expect(r.errors).toEqual([]);
    expect(summary(r)).toEqual([
      {
        accountIban: 'PT50003509990009876543280',
        currency: 'EUR',
        statementId: 'PT2026060501',
        sequence: '00123/1',
        periodStart: '2026-06-04',
        periodEnd: '2026-06-05',
        balance: { opening: 5000000, closing: 469398, consistent: true },
        firstEntry: 0,
        entryCount: 4,
      },
      {
        accountIban: 'PT50003509990001234567870',
        currency: 'EUR',
        statementId: 'PT2026060502',
        sequence: '00045/1',
        periodStart: '2026-06-04',
        periodEnd: '2026-06-05',
        balance: { opening: 100000, closing: 125000, consistent: true },
        firstEntry: 4,
        entryCount: 1,
      },
    ]);
    expect(r.entries.map((e) => e.amountCents)).toEqual([-4531092, 750, -250, -10, 25000]);
    // The second account's line is its own, not the first account's.
    expect(r.entries[4]!.description).toBe('TRF CR SEPA+ 0000031 DE CLINICA EXEMPLO');
  });

  it("the cmxl sample's three accounts (DEM, EUR, PLN) are three statements", () => {
    const r = parseStatement(sample('mt940.sta'));
    expect(r.statements.map((s) => [s.accountIban, s.currency, s.statementId, s.entryCount])).toEqual([
      ['45050050/76198810', 'DEM', '131110', 11],
      ['10020030/1234567', 'EUR', '1234567', 2],
      ['BPHKPLPK/320000546101', 'PLN', 'TELEWIZORY S.A.', 3],
    ]);
    expect(r.entries.slice(11, 13).every((e) => e.currency === 'EUR')).toBe(true);
  });

  it('a balance mismatch is an error of its own statement, with its index', () => {
    const r = parseMt940(MT940_TWO.replace(':62F:C260605EUR1250,00', ':62F:C260605EUR1250,01'));
    expect(r.errors).toEqual([{ line: 22, code: 'BALANCE_MISMATCH', statement: 1 }]);
    expect(r.statements.map((s) => s.balance?.consistent)).toEqual([true, false]);
  });

  it('a statement cut before its closing balance is MISSING_CLOSING_BALANCE (cut inside its third :86:)', () => {
    const r = parseStatement(real('made-here-mt940-cut-inside-third-86.sta'));
    expect(r.errors).toEqual([{ line: 11, code: 'MISSING_CLOSING_BALANCE', statement: 0 }]);
    // A second statement cut after its :20: is refused the same way.
    const second = parseMt940(MT940_TWO.slice(0, MT940_TWO.indexOf(':25:PT5000350999000123')));
    expect(second.errors).toEqual([{ line: 16, code: 'MISSING_CLOSING_BALANCE', statement: 1 }]);
  });
});

const camt = (statements: string, body = 'BkToCstmrStmt') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><${body}>\n<GrpHdr><MsgId>M</MsgId></GrpHdr>\n${statements}</${body}></Document>\n`;
const bal = (code: string, amount: string, date: string, indicator = 'CRDT') =>
  `<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">${amount}</Amt><CdtDbtInd>${indicator}</CdtDbtInd><Dt><Dt>${date}</Dt></Dt></Bal>\n`;
const ntry = (
  amount: string,
  indicator: string,
  date: string,
  status = '<Sts><Cd>BOOK</Cd></Sts>',
  info = '',
) =>
  `<Ntry><Amt Ccy="EUR">${amount}</Amt><CdtDbtInd>${indicator}</CdtDbtInd>${status}<BookgDt><Dt>${date}</Dt></BookgDt><AddtlNtryInf>${info}</AddtlNtryInf></Ntry>\n`;

const TWO_STMTS = camt(
  '<Stmt><Id>S-A-7</Id><ElctrncSeqNb>7</ElctrncSeqNb><LglSeqNb>3</LglSeqNb>' +
    '<FrToDt><FrDtTm>2026-06-01T00:00:00</FrDtTm><ToDtTm>2026-06-30T23:59:59</ToDtTm></FrToDt>\n' +
    '<Acct><Id><IBAN>PT50 0035 0999 0009 8765 4328 0</IBAN></Id><Ccy>EUR</Ccy></Acct>\n' +
    bal('OPBD', '100.00', '2026-05-31') +
    bal('CLBD', '90.00', '2026-06-30') +
    ntry('10.00', 'DBIT', '2026-06-10') +
    '</Stmt>\n' +
    '<Stmt><Id>S-B-2</Id><LglSeqNb>2</LglSeqNb>\n' +
    '<Acct><Id><Othr><Id>0001234567805</Id></Othr></Id></Acct>\n' +
    bal('PRCD', '5.00', '2026-06-14', 'DBIT') +
    bal('CLBD', '15.00', '2026-06-16') +
    ntry('20.00', 'CRDT', '2026-06-15') +
    '</Stmt>\n' +
    '<Stmt><Id>S-C</Id><Acct><Id><IBAN>PT50003509990001234567870</IBAN></Id></Acct>\n' +
    ntry('1.00', 'CRDT', '2026-06-20') +
    ntry('2.00', 'CRDT', '2026-06-18') +
    '</Stmt>\n',
);

describe('camt: one statement per Stmt / Rpt / Ntfctn', () => {
  it('gives each its account, Stmt/Id, sequence (ElctrncSeqNb, else LglSeqNb), period and balance', () => {
    const r = parseCamt053(TWO_STMTS);
    expect(r.errors).toEqual([]);
    expect(summary(r)).toEqual([
      {
        accountIban: 'PT50003509990009876543280',
        currency: 'EUR',
        statementId: 'S-A-7',
        sequence: '7',
        periodStart: '2026-06-01',
        periodEnd: '2026-06-30',
        balance: { opening: 10000, closing: 9000, consistent: true },
        firstEntry: 0,
        entryCount: 1,
      },
      {
        // No FrToDt: the balances' dates; no Acct/Ccy: the balances' currency.
        accountIban: '0001234567805',
        currency: 'EUR',
        statementId: 'S-B-2',
        sequence: '2',
        periodStart: '2026-06-14',
        periodEnd: '2026-06-16',
        balance: { opening: -500, closing: 1500, consistent: true },
        firstEntry: 1,
        entryCount: 1,
      },
      {
        // Neither: the first and last booking dates.
        accountIban: 'PT50003509990001234567870',
        currency: 'EUR',
        statementId: 'S-C',
        sequence: null,
        periodStart: '2026-06-18',
        periodEnd: '2026-06-20',
        balance: null,
        firstEntry: 2,
        entryCount: 2,
      },
    ]);
    expect(r.accountIban).toBe('PT50003509990009876543280');
  });

  it('reads camt.052 reports and camt.054 notifications the same way', () => {
    const rpt = TWO_STMTS.replace(/BkToCstmrStmt/g, 'BkToCstmrAcctRpt').replace(/<(\/?)Stmt>/g, '<$1Rpt>');
    const ntf = TWO_STMTS.replace(/BkToCstmrStmt/g, 'BkToCstmrDbtCdtNtfctn').replace(
      /<(\/?)Stmt>/g,
      '<$1Ntfctn>',
    );
    for (const xml of [rpt, ntf]) {
      expect(parseCamt053(xml).statements.map((s) => [s.statementId, s.firstEntry, s.entryCount])).toEqual([
        ['S-A-7', 0, 1],
        ['S-B-2', 1, 1],
        ['S-C', 2, 2],
      ]);
    }
  });

  it('a balance mismatch names its statement', () => {
    const r = parseCamt053(TWO_STMTS.replace('<Amt Ccy="EUR">15.00</Amt>', '<Amt Ccy="EUR">15.01</Amt>'));
    expect(r.errors).toEqual([{ line: 14, code: 'BALANCE_MISMATCH', statement: 1 }]);
  });

  it('a statement that gives its opening balance but not its closing one is MISSING_CLOSING_BALANCE', () => {
    const r = parseCamt053(TWO_STMTS.replace(bal('CLBD', '90.00', '2026-06-30'), ''));
    expect(r.errors).toEqual([{ line: 4, code: 'MISSING_CLOSING_BALANCE', statement: 0 }]);
  });

  it('a file cut short is UNCLOSED_XML at its last line; other XML faults keep their own code', () => {
    const cut = TWO_STMTS.slice(0, TWO_STMTS.indexOf('<Stmt><Id>S-C'));
    expect(parseCamt053(cut).errors).toEqual([{ line: 15, code: 'UNCLOSED_XML' }]);
    expect(parseCamt053(cut.slice(0, -5)).errors).toEqual([{ line: 15, code: 'UNCLOSED_XML' }]);
    expect(parseCamt053(cut.slice(0, cut.indexOf('<Amt', cut.indexOf('PRCD')) + 7)).errors).toEqual([
      { line: 12, code: 'UNCLOSED_XML' },
    ]);
    expect(parseCamt053(TWO_STMTS.replace('</Acct>', '</Acc>')).errors).toEqual([
      { line: 5, code: 'MALFORMED_XML' },
    ]);
  });
});

describe('pending and informational camt entries', () => {
  const xml = camt(
    '<Stmt><Id>S</Id><Acct><Id><IBAN>PT50003509990009876543280</IBAN></Id></Acct>\n' +
      bal('OPBD', '100.00', '2026-06-01') +
      bal('CLBD', '110.00', '2026-06-02') +
      ntry('10.00', 'CRDT', '2026-06-02') +
      ntry('99.00', 'DBIT', '2026-06-02', '<Sts>PDNG</Sts>', 'CARTAO 02/06 PENDENTE') +
      ntry('5.00', 'CRDT', '2026-06-02', '<Sts><Cd>INFO</Cd></Sts>', 'AVISO') +
      ntry('7.00', 'CRDT', '2026-06-03', '<Sts><Cd>FUTR</Cd></Sts>') +
      '</Stmt>\n',
  );

  it('are skipped and listed (PDNG, FUTR: PENDING; INFO: INFORMATION), outside the entries and the balance', () => {
    const r = parseCamt053(xml);
    expect(r.errors).toEqual([]);
    expect(r.entries.map((e) => e.amountCents)).toEqual([1000]);
    expect(r.statements[0]!.balance).toEqual({ opening: 10000, closing: 11000, consistent: true });
    expect(r.skipped).toEqual([
      {
        statement: 0,
        line: 8,
        reason: 'PENDING',
        bookingDate: '2026-06-02',
        amountCents: -9900,
        description: 'CARTAO 02/06 PENDENTE',
      },
      {
        statement: 0,
        line: 9,
        reason: 'INFORMATION',
        bookingDate: '2026-06-02',
        amountCents: 500,
        description: 'AVISO',
      },
      {
        statement: 0,
        line: 10,
        reason: 'PENDING',
        bookingDate: '2026-06-03',
        amountCents: 700,
        description: '',
      },
    ]);
  });

  it('a status that is none of these is still an error of its entry', () => {
    for (const status of ['XXXX', 'constructor', '__proto__']) {
      const r = parseCamt053(xml.replace('<Sts>PDNG</Sts>', `<Sts>${status}</Sts>`));
      expect(r.errors).toEqual([{ line: 8, code: 'UNKNOWN_ENTRY_STATUS', statement: 0 }]);
    }
  });

  it("the real camt.052 sample's pending entry is skipped, not an error", () => {
    const r = parseStatement(real('genkgo-camt052-v4-pending.xml'));
    expect(r.errors).toEqual([]);
    expect(r.skipped.map((s) => [s.reason, s.amountCents])).toEqual([['PENDING', -20000000]]);
  });
});

describe('CSV cut short', () => {
  it('a movement row with fewer cells than the header is ROW_TOO_SHORT (the issue: cut inside 45.310,92)', () => {
    const complete = parseStatement(real('made-here-cgd-complete.csv'));
    expect(complete.errors).toEqual([]);
    expect(complete.entries.at(-1)!.amountCents).toBe(-4531092);
    const cut = parseStatement(real('made-here-cgd-cut-inside-amount.csv'));
    expect(cut.errors).toEqual([{ line: 9, code: 'ROW_TOO_SHORT' }]);
    expect(cut.entries.map((e) => e.amountCents)).not.toContain(-4531090);
  });

  it('a movement ending the file without a line break inside a column we read is VALUE_CUT', () => {
    const head = 'Data;Descrição;Valor\n01-06-2026;A;1,00\n';
    expect(parseCsvStatement(`${head}02-06-2026;B;45.310,9`).errors).toEqual([
      { line: 3, code: 'VALUE_CUT' },
    ]);
    expect(parseCsvStatement(`${head}02-06-2026;B;45.310,92\n`).errors).toEqual([]);
    // The last value closed by its quote, or a column not read (a balance), is not a cut we can see or that matters.
    expect(parseCsvStatement(`${head}02-06-2026;B;"45.310,92"`).errors).toEqual([]);
    const withBalance = 'Data;Descrição;Valor;Saldo\n01-06-2026;A;1,00;10,00\n02-06-2026;B;2,00;12,0';
    expect(parseCsvStatement(withBalance).errors).toEqual([]);
    // A header's trailing delimiter names no column: rows without it are not short.
    expect(parseCsvStatement('Data;Descrição;Valor;\n01-06-2026;A;1,00\n').errors).toEqual([]);
  });

  it('a complete last movement without a line break is read when it looks as the earlier ones of its column do', () => {
    // Many exports end their last line without a break: an amount ending as every earlier amount ends
    // (",99"), or a date of the same shape, is whole; a cut cannot keep that look.
    const amounts = 'Data;Descrição;Valor\n01-06-2026;A;1,00\n02-06-2026;B;-12,50\n03-06-2026;C;45.310,92';
    expect(parseCsvStatement(amounts).errors).toEqual([]);
    expect(parseCsvStatement(amounts).entries.at(-1)!.amountCents).toBe(4531092);
    for (const cut of ['45.310,9', '45.310,', '45.31', '4']) {
      expect(parseCsvStatement(amounts.replace(/45\.310,92$/, cut)).errors).toEqual([
        { line: 4, code: 'VALUE_CUT' },
      ]);
    }
    const dates = 'Descrição;Valor;Data\nA;1,00;01-06-2026\nB;2,00;02-06-2026';
    expect(parseCsvStatement(dates).errors).toEqual([]);
    expect(parseCsvStatement(dates).entries).toHaveLength(2);
    // Cut inside its date, the last row is no movement (a summary row, skipped): a prefix of the file.
    expect(parseCsvStatement(dates.slice(0, -1)).entries.map((e) => e.description)).toEqual(['A']);
    // Amounts without decimals, or text, can end anywhere: still a possible cut.
    expect(parseCsvStatement('Data;Descrição;Valor\n01-06-2026;A;100\n02-06-2026;B;4531').errors).toEqual([
      { line: 3, code: 'VALUE_CUT' },
    ]);
    expect(
      parseCsvStatement('Data;Valor;Descrição\n01-06-2026;1,00;PAGAMENTO\n02-06-2026;2,00;PAGAMENT').errors,
    ).toEqual([{ line: 3, code: 'VALUE_CUT' }]);
  });

  it('a UTF-8 file cut inside a character stays UTF-8 (not every accent re-read as windows-1252)', () => {
    const bytes = new TextEncoder().encode('Data;Descrição;Valor\n01-06-2026;Devolução;1,00\n02-06-2026;Ç');
    const cut = bytes.subarray(0, bytes.length - 1);
    expect(decodeBytes(cut)).toEqual({
      text: 'Data;Descrição;Valor\n01-06-2026;Devolução;1,00\n02-06-2026;\uFFFD',
      encoding: 'utf-8',
    });
    // Plain ASCII ending in one high byte is still windows-1252.
    expect(decodeBytes(Uint8Array.from([0x41, 0x3b, 0xc3]))).toEqual({
      text: 'A;Ã',
      encoding: 'windows-1252',
    });
  });
});

describe('returns and fees', () => {
  it('MT940: RTI is a return with the reason from :86: and the EndToEndId from the customer reference', () => {
    const r = parseMt940(MT940_TWO);
    expect(r.entries[1]).toMatchObject({
      amountCents: 750,
      kind: 'return',
      returnReason: 'AC04',
      endToEndId: 'STL-2026-05-DOC0042',
      bankReference: 'CGD2606050002',
    });
  });

  it('MT940: NCHG "COMISSAO DEVOLUCAO SEPA" and stamp duty are fees, not returns', () => {
    const r = parseMt940(MT940_TWO);
    expect(r.entries.slice(2, 4).map((e) => [e.description, e.kind, e.returnReason])).toEqual([
      ['COMISSAO DEVOLUCAO SEPA', 'fee', null],
      ['IMPOSTO DO SELO S/COMISSAO', 'fee', null],
    ]);
  });

  it('MT940: without a telling type, the first of a return or fee word in :86: decides', () => {
    const entry = (type: string, text: string) =>
      parseMt940(
        `:20:X\n:25:PT50003509990009876543280\n:60F:C260601EUR0,00\n:61:260601D1,00${type}NONREF\n:86:${text}\n:62F:D260601EUR1,00\n`,
      ).entries[0]!;
    expect(entry('NTRF', 'COMISSAO DEVOLUCAO SEPA').kind).toBe('fee');
    expect(entry('NMSC', 'DEVOLUCAO TRF SEPA MS03 COMISSAO INCLUIDA')).toMatchObject({
      kind: 'return',
      returnReason: 'MS03',
    });
    expect(entry('NTRF', 'TRF SEPA PAGAMENTO').kind).toBe('transfer');
    expect(entry('NCOM', 'ENVIO EXTRATO').kind).toBe('fee');
    expect(entry('NTRF', '/TRTP/SEPA OVERBOEKING/RTRN/MD07/NAME/X/').returnReason).toBe('MD07');
  });

  it("MT940: the German sample's NRTI cancellations are returns", () => {
    const r = parseStatement(real('betterplace-sepa-returns.sta'));
    const returns = r.entries.filter((e) => e.kind === 'return');
    expect(returns.length).toBeGreaterThanOrEqual(2);
    expect(r.entries.filter((e) => e.lineNumber === 19 || e.lineNumber === 101).map((e) => e.kind)).toEqual([
      'return',
      'return',
    ]);
  });

  it('PT CSV texts: DEVOLUÇÃO / DEVOLUCAO / DEV. TRF are returns with their reason; COMISSAO, IMPOSTO DO SELO, I.SELO fees', () => {
    const rows = [
      'DEVOLUÇÃO TRF AC04 STL-2026-05-DOC0042',
      'DEVOLUCAO TRF SEPA MS03',
      'DEV. TRF MD07 STL-2026-05-DOC0043',
      'DEVOLUCAO TRANSFERENCIA',
      'COMISSAO TRF SEPA',
      'COMISSÃO DEVOLUÇÃO SEPA',
      'IMPOSTO DO SELO S/COMISSOES',
      'I.SELO S/COMISSAO',
      'TRF CR SEPA+ 0000031 DE CLINICA EXEMPLO',
    ];
    const csv = `Data;Descrição;Valor\n${rows.map((d) => `03-06-2026;${d};-1,00`).join('\n')}\n`;
    expect(parseCsvStatement(csv).entries.map((e) => [e.kind, e.returnReason])).toEqual([
      ['return', 'AC04'],
      ['return', 'MS03'],
      ['return', 'MD07'],
      ['return', null],
      ['fee', null],
      ['fee', null],
      ['fee', null],
      ['fee', null],
      ['transfer', null],
    ]);
  });

  it('camt: RtrInf is still read as a return with its reason', () => {
    const r = parseStatement(sample('synthetic-statement-pt.camt.053.001.02.xml'));
    expect(r.entries.filter((e) => e.kind === 'return').map((e) => [e.returnReason, e.endToEndId])).toEqual([
      ['AC04', 'STL-2026-04-DOC0311'],
    ]);
  });
});
