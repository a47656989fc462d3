import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  PAIN002_NAMESPACE,
  type Pain002ErrorCode,
  type Pain002Report,
  readPain002,
  statusKind,
} from '../../../domain/sepa/read-pain002';
import { decisionForTransfer, interpretStatusReport } from '../../../domain/sepa/status-report';

/** `../shared/fixtures/banking/` beside the repository, as in shared-fixtures.ts. */
const BANKING = fileURLToPath(new URL('../../../../shared/fixtures/banking/samples/', import.meta.url));
const OWN = fileURLToPath(new URL('../../fixtures/status-reports/', import.meta.url));
const shared = (name: string) =>
  readFileSync(`${BANKING}status-reports/pain.002.001.03_corporatejs_${name}.xml`, 'utf8');
const own = (name: string) => readFileSync(`${OWN}${name}.xml`, 'utf8');

const ERROR_CODES: readonly Pain002ErrorCode[] = [
  'FILE_TOO_LARGE',
  'DOCTYPE_NOT_ALLOWED',
  'MALFORMED_XML',
  'TOO_DEEP',
  'NOT_PAIN002',
  'UNSUPPORTED_VERSION',
  'MISSING_FIELD',
  'REPEATED_FIELD',
  'INVALID_DATE_TIME',
  'INVALID_AMOUNT',
];

function report(xml: string): Pain002Report {
  const r = readPain002(xml);
  if (!r.ok) throw new Error(`not read: ${JSON.stringify(r)}`);
  return r.report;
}
const interpret = (xml: string) => interpretStatusReport(report(xml));
/** The rejections as `[PmtInfId, EndToEndId, status, reason codes]`, for short expectations. */
const rejected = (xml: string) =>
  interpret(xml).rejections.map((r) => [
    r.paymentInformationId,
    r.endToEndId,
    r.status,
    r.reasons.map((x) => x.code ?? x.proprietary),
  ]);

// Small builders for hand-written reports.
const doc = (body: string, ns = PAIN002_NAMESPACE) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="${ns}"><CstmrPmtStsRpt>` +
  '<GrpHdr><MsgId>R-1</MsgId><CreDtTm>2026-05-05T10:00:00Z</CreDtTm></GrpHdr>' +
  `${body}</CstmrPmtStsRpt></Document>`;
const group = (sts?: string, extra = '') =>
  '<OrgnlGrpInfAndSts><OrgnlMsgId>F-1</OrgnlMsgId><OrgnlMsgNmId>pain.001.001.03</OrgnlMsgNmId>' +
  `${sts ? `<GrpSts>${sts}</GrpSts>` : ''}${extra}</OrgnlGrpInfAndSts>`;
const block = (id: string, sts: string | null, txs = '', extra = '') =>
  `<OrgnlPmtInfAndSts><OrgnlPmtInfId>${id}</OrgnlPmtInfId>${extra}` +
  `${sts ? `<PmtInfSts>${sts}</PmtInfSts>` : ''}${txs}</OrgnlPmtInfAndSts>`;
const reason = (code: string) => `<StsRsnInf><Rsn><Cd>${code}</Cd></Rsn></StsRsnInf>`;
const tx = (e2e: string | null, sts: string | null, why = '') =>
  `<TxInfAndSts>${e2e === null ? '' : `<OrgnlEndToEndId>${e2e}</OrgnlEndToEndId>`}` +
  `${sts ? `<TxSts>${sts}</TxSts>` : ''}${why}</TxInfAndSts>`;

describe('readPain002', () => {
  it('reads the shared accepted-and-rejected sample level by level', () => {
    const r = report(shared('accepted-and-rejected-payments'));
    expect(r.messageId).toBe('1540378');
    expect(r.createdAt).toBe('2014-01-11T16:31:48+02:00');
    expect(r.namespace).toBe(PAIN002_NAMESPACE);
    expect(r.original).toMatchObject({
      messageId: 'MsgId_110610',
      messageNameId: 'pain.001.001.03',
      createdAt: '2014-01-08T10:24:00+02:00',
      numberOfTransactions: 8,
      status: { code: 'PART', kind: 'PARTIAL' },
      reasons: [],
    });
    expect(
      r.payments.map((p) => [p.originalPaymentInformationId, p.status?.code, p.originalControlSumCents]),
    ).toEqual([
      ['20140102-123456-01', 'PART', 11177933],
      ['20140102-123456-02', 'RJCT', 74022],
      ['20140102-123456-03', 'ACCP', 66522],
      ['20140102-123456-04', 'ACCP', 50000011],
    ]);
    expect(r.payments[0]!.counts).toEqual([
      { status: 'ACCP', count: 2, controlSumCents: 11175722 },
      { status: 'RJCT', count: 1, controlSumCents: 2211 },
    ]);
    const t = r.payments[0]!.transactions[0]!;
    expect(t).toMatchObject({
      originalEndToEndId: 'TEST PMT',
      // The sample writes `OrgnlInstrdId`, not the schema's `OrgnlInstrId`: not read.
      originalInstructionId: null,
      status: { code: 'RJCT', kind: 'REJECTED' },
      reasons: [{ code: 'NARR', proprietary: null, additionalInfo: ['Viite virheellinen'], known: true }],
      amountCents: 2211,
      currency: 'EUR',
      requestedExecutionDate: '2014-01-11',
      creditorName: 'Oy Yritys Ab',
      creditorIban: 'FI4880002002330354',
    });
    expect(r.payments[1]!.reasons[0]).toMatchObject({
      code: 'DT01',
      additionalInfo: ['Eräpäivä virheellinen'],
    });
    expect(r.payments[1]!.transactions[0]).toMatchObject({
      originalEndToEndId: null,
      status: null,
      amountCents: 74022,
    });
    expect(r.warnings).toEqual([]);
  });

  it('reads every shared sample without warnings', () => {
    const dir = `${BANKING}status-reports/`;
    const files = readdirSync(dir).filter((f) => f.endsWith('.xml'));
    expect(files).toHaveLength(4);
    for (const f of files) expect(report(readFileSync(dir + f, 'utf8')).warnings, f).toEqual([]);
  });

  it('keeps the line of each level', () => {
    const r = report(shared('accepted-payment-material'));
    expect(r.original.line).toBe(8);
    expect(r.payments[0]!.line).toBe(15);
    expect(r.payments[0]!.transactions[0]!.line).toBe(25);
    const xml = own('pain002-part-transactions');
    expect(report(xml).payments[0]!.transactions.map((t) => t.line)).toEqual([33, 42, 58]);
  });

  it('reads reasons: several per status, proprietary codes, several AddtlInf, the originator', () => {
    const t = report(own('pain002-part-transactions')).payments[0]!.transactions;
    expect(t[1]!.reasons).toEqual([
      {
        code: 'AC04',
        proprietary: null,
        additionalInfo: ['Conta encerrada em 2026-04-30'],
        originator: 'CGDIPTPL',
        known: true,
      },
    ]);
    expect(t[2]!.reasons).toEqual([
      {
        code: null,
        proprietary: 'X123',
        additionalInfo: ['Beneficiario sem', 'conta ativa'],
        originator: null,
        known: false,
      },
      { code: 'RR03', proprietary: null, additionalInfo: [], originator: null, known: true },
    ]);
    expect(t[1]!.creditorIban).toBe('PT50003506510000000000033');
    expect(t[0]!.statusId).toBe('STS-1');
  });

  it('keeps unknown status and reason codes and flags them', () => {
    const r = report(
      doc(group('ACFC') + block('B', 'PART', tx('E1', 'BLCK', reason('ZZ99')) + tx('E2', 'PART'))),
    );
    expect(r.original.status).toEqual({ code: 'ACFC', kind: 'UNKNOWN' });
    expect(r.payments[0]!.transactions.map((t) => t.status)).toEqual([
      { code: 'BLCK', kind: 'UNKNOWN' },
      // PART exists for groups and blocks only.
      { code: 'PART', kind: 'UNKNOWN' },
    ]);
    expect(r.warnings.map((w) => [w.code, w.path, w.value])).toEqual([
      ['UNKNOWN_STATUS', 'OrgnlGrpInfAndSts/GrpSts', 'ACFC'],
      ['UNKNOWN_STATUS', 'OrgnlPmtInfAndSts[1]/TxInfAndSts[1]/TxSts', 'BLCK'],
      ['UNKNOWN_REASON_CODE', 'OrgnlPmtInfAndSts[1]/TxInfAndSts[1]/StsRsnInf[1]/Rsn/Cd', 'ZZ99'],
      ['UNKNOWN_STATUS', 'OrgnlPmtInfAndSts[1]/TxInfAndSts[2]/TxSts', 'PART'],
    ]);
  });

  it('classifies the pain.002.001.03 status codes per level', () => {
    for (const c of ['ACTC', 'ACCP', 'ACSP', 'ACSC', 'ACWC'])
      expect(statusKind(c, 'TRANSACTION')).toBe('ACCEPTED');
    expect(statusKind('RJCT', 'GROUP')).toBe('REJECTED');
    expect(statusKind('PDNG', 'TRANSACTION')).toBe('PENDING');
    expect(statusKind('RCVD', 'GROUP')).toBe('PENDING');
    expect(statusKind('RCVD', 'TRANSACTION')).toBe('UNKNOWN');
    expect(statusKind('PART', 'PAYMENT_INFORMATION')).toBe('PARTIAL');
    expect(statusKind('accp', 'GROUP')).toBe('UNKNOWN');
  });

  it('flags an original message that is not a pain.001 and a count that is not one', () => {
    const xml = doc(
      group('ACCP')
        .replace('pain.001.001.03', 'pain.008.001.02')
        .replace('</OrgnlMsgNmId>', '</OrgnlMsgNmId><OrgnlNbOfTxs>3.0</OrgnlNbOfTxs>'),
    );
    expect(report(xml).warnings.map((w) => [w.code, w.value])).toEqual([
      ['ORIGINAL_NOT_PAIN001', 'pain.008.001.02'],
      ['INVALID_COUNT', '3.0'],
    ]);
  });

  it('reads a document with a namespace prefix', () => {
    const xml = shared('accepted-technical-check')
      .replace('<Document xmlns=', '<p:Document xmlns:p=')
      .replace('</Document>', '</p:Document>')
      .replace(/<(\/?)(?!p:|\?|Document)([A-Za-z])/g, '<$1p:$2');
    expect(xml).toContain('<p:GrpSts>ACTC</p:GrpSts>');
    expect(report(xml).original.status?.code).toBe('ACTC');
  });

  it.each([
    [
      'pain.001 (shared sample)',
      () => readFileSync(`${BANKING}pain.001.001.03.xml`, 'utf8'),
      'CstmrCdtTrfInitn',
    ],
    [
      'our own pain.001',
      () => readFileSync(`${BANKING}synthetic-payout-pt.pain.001.001.03.xml`, 'utf8'),
      'CstmrCdtTrfInitn',
    ],
    ['camt.053', () => readFileSync(`${BANKING}camt053.v2.minimal.xml`, 'utf8'), 'BkToCstmrStmt'],
    ['another root', () => '<Foo><Bar/></Foo>', 'Foo'],
  ])('refuses %s as NOT_PAIN002', (_, xml, found) => {
    expect(readPain002(xml())).toEqual({ ok: false, code: 'NOT_PAIN002', line: 1, found });
  });

  it('refuses another pain.002 version and a report without the pain.002 namespace', () => {
    const v10 = 'urn:iso:std:iso:20022:tech:xsd:pain.002.001.10';
    expect(readPain002(doc(group('ACCP'), v10))).toEqual({
      ok: false,
      code: 'UNSUPPORTED_VERSION',
      line: 1,
      found: v10,
    });
    expect(readPain002(doc(group('ACCP'), 'urn:example'))).toMatchObject({
      code: 'NOT_PAIN002',
      found: 'urn:example',
    });
    expect(readPain002(doc(group('ACCP')).replace(/ xmlns="[^"]*"/, ''))).toMatchObject({
      code: 'NOT_PAIN002',
      found: '(no namespace)',
    });
  });

  it('refuses what the bounded reader refuses', () => {
    const ok = shared('accepted-technical-check');
    const xxe = ok.replace('<Document', '<!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<Document');
    expect(readPain002(xxe)).toMatchObject({ ok: false, code: 'DOCTYPE_NOT_ALLOWED', line: 2 });
    expect(readPain002(ok.slice(0, ok.indexOf('</OrgnlGrpInfAndSts>')))).toMatchObject({
      ok: false,
      code: 'MALFORMED_XML',
    });
    expect(readPain002(`${'<a>'.repeat(100)}${'</a>'.repeat(100)}`)).toMatchObject({
      ok: false,
      code: 'TOO_DEEP',
    });
    expect(readPain002(' '.repeat(20_000_001))).toEqual({ ok: false, code: 'FILE_TOO_LARGE', line: 1 });
    expect(readPain002('')).toMatchObject({ ok: false, code: 'MALFORMED_XML' });
  });

  it('requires the identifiers a report is matched by, and a valid creation time', () => {
    expect(readPain002(doc(group('ACCP')).replace('<MsgId>R-1</MsgId>', ''))).toEqual({
      ok: false,
      code: 'MISSING_FIELD',
      line: 2,
      field: 'GrpHdr/MsgId',
    });
    expect(readPain002(doc(group('ACCP')).replace('2026-05-05T10:00:00Z', '05/05/2026'))).toMatchObject({
      code: 'INVALID_DATE_TIME',
      field: 'GrpHdr/CreDtTm',
    });
    expect(readPain002(doc(''))).toMatchObject({
      code: 'MISSING_FIELD',
      field: 'OrgnlGrpInfAndSts/OrgnlMsgId',
    });
    expect(
      readPain002(doc(`${group('ACCP')}<OrgnlPmtInfAndSts><PmtInfSts>RJCT</PmtInfSts></OrgnlPmtInfAndSts>`)),
    ).toMatchObject({
      code: 'MISSING_FIELD',
      field: 'OrgnlPmtInfAndSts[1]/OrgnlPmtInfId',
    });
  });

  it('refuses a status written twice rather than picking one', () => {
    const xml = doc(
      group('ACCP') +
        block(
          'B',
          null,
          '<TxInfAndSts><OrgnlEndToEndId>E</OrgnlEndToEndId><TxSts>ACCP</TxSts><TxSts>RJCT</TxSts></TxInfAndSts>',
        ),
    );
    expect(readPain002(xml)).toMatchObject({
      ok: false,
      code: 'REPEATED_FIELD',
      field: 'OrgnlPmtInfAndSts[1]/TxInfAndSts[1]/TxSts',
    });
    expect(readPain002(doc(group('ACCP') + group('RJCT')))).toMatchObject({
      code: 'REPEATED_FIELD',
      field: 'OrgnlGrpInfAndSts',
    });
  });

  it.each(['12.345', '-5.00', '1,50', '1e3', ''])(
    'refuses the amount %j (only empty is absent)',
    (amount) => {
      const xml = doc(
        group('ACCP') +
          block(
            'B',
            null,
            `<TxInfAndSts><OrgnlEndToEndId>E</OrgnlEndToEndId><OrgnlTxRef><Amt><InstdAmt Ccy="EUR">${amount}</InstdAmt></Amt></OrgnlTxRef></TxInfAndSts>`,
          ),
      );
      if (amount === '') expect(report(xml).payments[0]!.transactions[0]!.amountCents).toBeNull();
      else
        expect(readPain002(xml)).toMatchObject({
          ok: false,
          code: 'INVALID_AMOUNT',
          field: 'OrgnlPmtInfAndSts[1]/TxInfAndSts[1]/OrgnlTxRef/Amt/InstdAmt',
        });
    },
  );

  it('reads amounts as exact cents', () => {
    const xml = doc(
      group('ACCP') +
        block(
          'B',
          null,
          tx('E', null).replace(
            '</TxInfAndSts>',
            '<OrgnlTxRef><Amt><InstdAmt Ccy="EUR">0.1</InstdAmt></Amt></OrgnlTxRef></TxInfAndSts>',
          ),
          '<OrgnlCtrlSum>999999999.99</OrgnlCtrlSum>',
        ),
    );
    const p = report(xml).payments[0]!;
    expect(p.originalControlSumCents).toBe(99999999999);
    expect(p.transactions[0]!.amountCents).toBe(10);
  });
});

describe('interpretStatusReport: the shared samples', () => {
  it('accepted-technical-check: ACTC at group level, nothing below → file AVAILABLE', () => {
    const i = interpret(shared('accepted-technical-check'));
    expect(i).toMatchObject({
      reportMessageId: '1539869',
      originalMessageId: '20110102-0000001',
      outcome: 'ACCEPTED',
      fileStatus: 'AVAILABLE',
      transfers: [],
      rejections: [],
      notes: [],
      otherPaymentInformation: 'ACCEPTED',
    });
  });

  it('accepted-payment-material: ACCP at every level → file AVAILABLE', () => {
    const i = interpret(shared('accepted-payment-material'));
    expect([i.outcome, i.fileStatus, i.rejections, i.notes]).toEqual(['ACCEPTED', 'AVAILABLE', [], []]);
    expect(i.paymentInformation).toEqual([
      {
        paymentInformationId: '20110102-123456-01',
        status: 'ACCP',
        decidedAt: 'PAYMENT_INFORMATION',
        others: 'ACCEPTED',
        reasons: [],
      },
    ]);
  });

  it('rejected-payment-material: RJCT with DT01 → file UNAVAILABLE, the block rejected with its reason', () => {
    const xml = shared('rejected-payment-material');
    const i = interpret(xml);
    expect([i.outcome, i.fileStatus, i.notes]).toEqual(['REJECTED', 'UNAVAILABLE', []]);
    expect(rejected(xml)).toEqual([['20140108-123456-01', null, 'RJCT', ['DT01']]]);
    expect(i.rejections[0]!.reasons[0]!.additionalInfo).toEqual(['Eräpäivä virheellinen.']);
    expect(decisionForTransfer(i, '20140108-123456-01', 'ANY')).toBe('REJECTED');
  });

  it('accepted-and-rejected-payments: PART → "TEST PMT" rejected (NARR) and block 02 rejected (DT01), the rest goes on', () => {
    const xml = shared('accepted-and-rejected-payments');
    const i = interpret(xml);
    expect([i.outcome, i.fileStatus, i.notes]).toEqual(['PARTIAL', 'AVAILABLE', []]);
    expect(rejected(xml)).toEqual([
      ['20140102-123456-01', 'TEST PMT', 'RJCT', ['NARR']],
      ['20140102-123456-02', null, 'RJCT', ['DT01']],
    ]);
    expect(i.rejections.map((r) => r.scope)).toEqual(['TRANSFER', 'PAYMENT_INFORMATION']);
    expect(i.paymentInformation.map((p) => [p.paymentInformationId, p.others])).toEqual([
      ['20140102-123456-01', 'ACCEPTED'],
      ['20140102-123456-02', 'REJECTED'],
      ['20140102-123456-03', 'ACCEPTED'],
      ['20140102-123456-04', 'ACCEPTED'],
    ]);
    expect(decisionForTransfer(i, '20140102-123456-01', 'TEST PMT')).toBe('REJECTED');
    expect(decisionForTransfer(i, '20140102-123456-01', 'OTHER')).toBe('ACCEPTED');
    expect(decisionForTransfer(i, '20140102-123456-02', 'OTHER')).toBe('REJECTED');
    // A block the report does not mention follows the group's PART: not named, so accepted.
    expect(decisionForTransfer(i, 'UNKNOWN-BLOCK', 'OTHER')).toBe('ACCEPTED');
  });
});

describe('interpretStatusReport: hand-written reports', () => {
  it('PART at transaction level: the rejected transfers with their reasons, the accepted one goes on', () => {
    const xml = own('pain002-part-transactions');
    const i = interpret(xml);
    expect([i.outcome, i.fileStatus, i.notes]).toEqual(['PARTIAL', 'AVAILABLE', []]);
    expect(rejected(xml)).toEqual([
      ['SEPA-2026-05-0001', 'STL-2026-04-DOC0043', 'RJCT', ['AC04']],
      ['SEPA-2026-05-0001', 'STL-2026-04-DOC0044', 'RJCT', ['X123', 'RR03']],
    ]);
    expect(i.transfers.map((t) => [t.endToEndId, t.decision, t.decidedAt, t.amountCents])).toEqual([
      ['STL-2026-04-DOC0042', 'ACCEPTED', 'TRANSACTION', 84000],
      ['STL-2026-04-DOC0043', 'REJECTED', 'TRANSACTION', 41250],
      ['STL-2026-04-DOC0044', 'REJECTED', 'TRANSACTION', 24945],
    ]);
  });

  it('mixed transaction statuses without PART: ACTC file, one transfer rejected → partial', () => {
    const xml = doc(group('ACTC') + block('B', null, tx('E1', 'ACCP') + tx('E2', 'RJCT', reason('AC01'))));
    const i = interpret(xml);
    expect([i.outcome, i.fileStatus]).toEqual(['PARTIAL', 'AVAILABLE']);
    expect(rejected(xml)).toEqual([['B', 'E2', 'RJCT', ['AC01']]]);
  });

  it('a transaction status overrides its block; the block its group', () => {
    const xml = doc(
      group('ACCP') +
        block('B1', 'RJCT', tx('E1', 'ACCP') + tx('E2', null)) +
        block('B2', null, tx('E3', null)),
    );
    const i = interpret(xml);
    expect(i.transfers.map((t) => [t.endToEndId, t.decision, t.decidedAt])).toEqual([
      ['E1', 'ACCEPTED', 'TRANSACTION'],
      ['E2', 'REJECTED', 'PAYMENT_INFORMATION'],
      ['E3', 'ACCEPTED', 'GROUP'],
    ]);
    expect(i.outcome).toBe('PARTIAL');
    expect(i.notes).toEqual([
      { code: 'LEVELS_DISAGREE', paymentInformationId: 'B1', endToEndId: 'E1', status: 'ACCP' },
    ]);
  });

  it('a transfer without reasons of its own takes those of the level that decided', () => {
    const xml = doc(group('ACCP') + block('B', 'RJCT', tx('E1', null) + tx('E2', 'RJCT'), reason('AM05')));
    expect(rejected(xml)).toEqual([
      ['B', 'E1', 'RJCT', ['AM05']],
      ['B', 'E2', 'RJCT', []],
      ['B', null, 'RJCT', ['AM05']],
    ]);
  });

  it('a block whose OrgnlNbOfTxs are all named has no unnamed rest', () => {
    const xml = doc(
      group('PART') +
        block('B', 'PART', tx('E1', 'RJCT') + tx('E2', 'ACCP'), '<OrgnlNbOfTxs>2</OrgnlNbOfTxs>'),
    );
    expect(interpret(xml).outcome).toBe('PARTIAL');
    const all = doc(
      group() + block('B', 'RJCT', tx('E1', null) + tx('E2', null), '<OrgnlNbOfTxs>2</OrgnlNbOfTxs>'),
    );
    expect(rejected(all)).toEqual([
      ['B', 'E1', 'RJCT', []],
      ['B', 'E2', 'RJCT', []],
    ]);
    expect(interpret(all).outcome).toBe('REJECTED');
  });

  it('group RJCT → file UNAVAILABLE, the whole file rejected with the group reason', () => {
    const xml = own('pain002-group-rejected');
    const i = interpret(xml);
    expect([i.outcome, i.fileStatus, i.notes]).toEqual(['REJECTED', 'UNAVAILABLE', []]);
    expect(i.rejections).toEqual([
      {
        scope: 'FILE',
        paymentInformationId: null,
        endToEndId: null,
        status: 'RJCT',
        reasons: [
          {
            code: 'DU01',
            proprietary: null,
            additionalInfo: ['Message already received'],
            originator: null,
            known: true,
          },
        ],
      },
    ]);
    expect(decisionForTransfer(i, 'SEPA-2026-05-0002', 'STL-1')).toBe('REJECTED');
  });

  it('PDNG → pending, no change to the file or its transfers', () => {
    const i = interpret(own('pain002-pending'));
    expect([i.outcome, i.fileStatus, i.rejections, i.notes]).toEqual(['PENDING', null, [], []]);
    expect(decisionForTransfer(i, 'SEPA-2026-05-0003', 'STL-1')).toBe('PENDING');
    expect(interpret(doc(group('RCVD'))).outcome).toBe('PENDING');
    expect(interpret(doc(group('ACTC') + block('B', 'PDNG'))).outcome).toBe('PENDING');
  });

  it('rejected and pending but nothing accepted → partial, file left as it is', () => {
    const i = interpret(
      doc(group() + block('B', null, tx('E1', 'RJCT') + tx('E2', 'PDNG'), '<OrgnlNbOfTxs>2</OrgnlNbOfTxs>')),
    );
    expect([i.outcome, i.fileStatus]).toEqual(['PARTIAL', null]);
  });

  it('the same report twice gives the same interpretation (reading it again changes nothing)', () => {
    for (const xml of [
      shared('accepted-and-rejected-payments'),
      own('pain002-part-transactions'),
      own('pain002-group-rejected'),
    ]) {
      const first = interpret(xml);
      const again = interpret(xml);
      expect(again).toEqual(first);
      expect(again).not.toBe(first);
    }
    const r = report(own('pain002-part-transactions'));
    const before = structuredClone(r);
    interpretStatusReport(r);
    expect(r).toEqual(before);
  });

  describe('UNDETERMINED: shown, nothing applied', () => {
    const cases: [string, string, string][] = [
      ['an unknown group status', doc(group('ACFC')), 'UNKNOWN_STATUS'],
      [
        'an unknown transaction status',
        doc(group('ACCP') + block('B', null, tx('E', 'BLCK'))),
        'UNKNOWN_STATUS',
      ],
      ['no status anywhere', doc(group()), 'NO_STATUS'],
      ['group PART with nothing below', doc(group('PART')), 'PARTIAL_WITHOUT_DETAIL'],
      [
        'block PART naming no rejection',
        doc(group('PART') + block('B', 'PART', tx('E', 'ACCP'))),
        'PARTIAL_WITHOUT_DETAIL',
      ],
      [
        'block PART counting two rejections, naming one',
        doc(
          group('PART') +
            block(
              'B',
              'PART',
              tx('E', 'RJCT'),
              '<NbOfTxsPerSts><DtldNbOfTxs>2</DtldNbOfTxs><DtldSts>RJCT</DtldSts></NbOfTxsPerSts>',
            ),
        ),
        'REJECTED_COUNT_MISMATCH',
      ],
      [
        'a rejection without EndToEndId in an accepted block',
        doc(group('ACCP') + block('B', 'ACCP', tx(null, 'RJCT'))),
        'UNIDENTIFIED_TRANSACTION',
      ],
      [
        'a transfer named under PART without a status',
        doc(group('PART') + block('B', 'PART', tx('E1', null) + tx('E2', 'RJCT'))),
        'TRANSACTION_WITHOUT_STATUS',
      ],
      [
        'one EndToEndId, two outcomes',
        doc(group('PART') + block('B', 'PART', tx('E', 'ACCP') + tx('E', 'RJCT'))),
        'CONFLICTING_STATUSES',
      ],
      [
        'one block twice, two outcomes',
        doc(group() + block('B', 'ACCP') + block('B', 'RJCT')),
        'CONFLICTING_STATUSES',
      ],
    ];
    it.each(cases)('%s', (_, xml, note) => {
      const i = interpret(xml);
      expect(i.outcome).toBe('UNDETERMINED');
      expect(i.fileStatus).toBeNull();
      expect(i.notes.map((n) => n.code)).toContain(note);
    });
  });
});

describe('properties', () => {
  const isTypedResult = (xml: string) => {
    const r = readPain002(xml);
    if (r.ok) {
      interpretStatusReport(r.report);
      return true;
    }
    return ERROR_CODES.includes(r.code) && Number.isInteger(r.line) && r.line >= 1;
  };

  it('readPain002 returns its typed result on arbitrary text', () => {
    const token = fc.constantFrom(
      '<',
      '>',
      '</',
      '/>',
      '<?xml version="1.0"?>',
      '<!--',
      '-->',
      '<![CDATA[',
      ']]>',
      '&amp;',
      '&#x0;',
      '&#99999999;',
      '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.002.001.03">',
      '</Document>',
      '<CstmrPmtStsRpt>',
      '</CstmrPmtStsRpt>',
      '<GrpHdr>',
      '</GrpHdr>',
      '<MsgId>',
      '</MsgId>',
      '<TxSts>',
      '</TxSts>',
      'RJCT',
      '__proto__',
      'constructor',
      ' Ccy="EUR"',
      '"',
      "'",
      '\n',
      ' ',
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 300 }),
          fc.array(fc.oneof(token, fc.string({ maxLength: 5 })), { maxLength: 60 }).map((a) => a.join('')),
        ),
        (xml) => isTypedResult(xml),
      ),
      { numRuns: 400 },
    );
  });

  it('readPain002 returns its typed result on mutated samples', () => {
    const samples = [
      shared('accepted-and-rejected-payments'),
      shared('rejected-payment-material'),
      own('pain002-part-transactions'),
      own('pain002-pending'),
    ];
    const piece = fc.constantFrom(
      '',
      '<',
      '</TxInfAndSts>',
      '<TxInfAndSts>',
      '<TxSts>RJCT</TxSts>',
      '<OrgnlEndToEndId>X</OrgnlEndToEndId>',
      '<InstdAmt Ccy="EUR">1.005</InstdAmt>',
      '<!DOCTYPE x>',
      '<GrpSts>PART</GrpSts>',
      '&',
      '<Cd>ZZZZ</Cd>',
      '<a/>',
    );
    const mutation = fc.tuple(fc.nat(), fc.nat({ max: 40 }), fc.oneof(piece, fc.string({ maxLength: 8 })));
    fc.assert(
      fc.property(
        fc.nat({ max: samples.length - 1 }),
        fc.array(mutation, { minLength: 1, maxLength: 5 }),
        (which, mutations) => {
          let xml = samples[which]!;
          for (const [at, cut, insert] of mutations) {
            const i = at % (xml.length + 1);
            xml = xml.slice(0, i) + insert + xml.slice(i + cut);
          }
          return isTypedResult(xml);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('interpretations of well-formed reports are consistent with their outcome', () => {
    const sts = fc.constantFrom<string | null>(
      null,
      'ACTC',
      'ACCP',
      'ACSC',
      'RJCT',
      'PDNG',
      'PART',
      'RCVD',
      'BLCK',
    );
    const e2e = fc.constantFrom<string | null>(null, 'E1', 'E2', 'E3', 'E4');
    const txs = fc
      .array(fc.tuple(e2e, sts), { maxLength: 4 })
      .map((a) => a.map(([e, s]) => tx(e, s === 'PART' || s === 'RCVD' ? null : s)).join(''));
    const blocks = fc.array(fc.tuple(fc.constantFrom('B1', 'B2', 'B3'), sts, txs), { maxLength: 3 });
    fc.assert(
      fc.property(sts, blocks, (g, bs) => {
        const xml = doc(group(g ?? undefined) + bs.map(([id, s, t]) => block(id, s, t)).join(''));
        const i = interpret(xml);
        expect(interpret(xml)).toEqual(i);
        const expected = {
          ACCEPTED: 'AVAILABLE',
          REJECTED: 'UNAVAILABLE',
          PENDING: null,
          UNDETERMINED: null,
        } as Record<string, string | null>;
        if (i.outcome !== 'PARTIAL') expect(i.fileStatus).toBe(expected[i.outcome]);
        const decisions = new Set(i.transfers.map((t) => t.decision));
        if (i.outcome === 'ACCEPTED') expect([...decisions].every((d) => d === 'ACCEPTED')).toBe(true);
        if (i.outcome === 'REJECTED') expect([...decisions].every((d) => d === 'REJECTED')).toBe(true);
        if (i.outcome === 'PARTIAL') expect(i.rejections.length).toBeGreaterThan(0);
        if (i.outcome !== 'UNDETERMINED' && i.outcome !== 'PARTIAL' && i.outcome !== 'REJECTED')
          expect(i.rejections).toEqual([]);
        for (const r of i.rejections) expect(r.status).toBe('RJCT');
      }),
      { numRuns: 300 },
    );
  });
});
