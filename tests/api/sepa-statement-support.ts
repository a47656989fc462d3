import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { StatementImportJob, StatementImportResult } from '../../contract/statement-import';
import { expectStatus, type SepaWorld } from './sepa-support';
import { type ImportParams, importPath, previewOf } from './statement-support';

/** One booked entry of a test camt.053: signed cents (debits negative). */
export interface CamtEntry {
  cents: number;
  date: string;
  /** The batch the bank books as one entry (`NtryDtls/Btch/PmtInfId`). */
  paymentInfoId?: string;
  /** One transaction's details: its EndToEndId, and the return reason when the bank gives money back. */
  endToEndId?: string;
  returnReason?: string;
  /** `BkTxCd/Domn/Fmly/Cd`, ICDT unless told (CHRG for a fee); its `SubFmlyCd`, ESCT unless told. */
  family?: string;
  subFamily?: string;
  text?: string;
  /** The other side (`RltdPties`): the creditor of a debit, the debtor of a credit. */
  counterpartyName?: string;
  counterpartyIban?: string;
  /** The bank's reference of the entry (`AcctSvcrRef`); a fresh one unless told. */
  bankReference?: string;
}

/** What the statement states beside its entries: its closing balance (the entries' sum unless told). */
export interface CamtOptions {
  closingCents?: number;
}

const amount = (cents: number) => (Math.abs(cents) / 100).toFixed(2);
const indicator = (cents: number) => (cents < 0 ? 'DBIT' : 'CRDT');

/**
 * A camt.053.001.02 statement of our debtor account as a bank writes it: opening balance 0, each entry
 * booked with its own servicer reference (so no two tests' lines are taken for the same payment).
 */
export function camt053(entries: readonly CamtEntry[], options: CamtOptions = {}): string {
  const closing = options.closingCents ?? entries.reduce((sum, e) => sum + e.cents, 0);
  const first = entries.map((e) => e.date).sort()[0]!;
  const last = entries
    .map((e) => e.date)
    .sort()
    .at(-1)!;
  const entry = (e: CamtEntry) => {
    const refs = e.endToEndId ? `<Refs><EndToEndId>${e.endToEndId}</EndToEndId></Refs>` : '';
    const ret = e.returnReason ? `<RtrInf><Rsn><Cd>${e.returnReason}</Cd></Rsn></RtrInf>` : '';
    const batch = e.paymentInfoId ? `<Btch><PmtInfId>${e.paymentInfoId}</PmtInfId></Btch>` : '';
    const role = e.cents < 0 ? 'Cdtr' : 'Dbtr';
    const party =
      e.counterpartyName || e.counterpartyIban
        ? `<RltdPties>${e.counterpartyName ? `<${role}><Nm>${e.counterpartyName}</Nm></${role}>` : ''}${
            e.counterpartyIban ? `<${role}Acct><Id><IBAN>${e.counterpartyIban}</IBAN></Id></${role}Acct>` : ''
          }</RltdPties>`
        : '';
    const details =
      refs || ret || party
        ? `<TxDtls>${refs}${party}${e.text ? `<RmtInf><Ustrd>${e.text}</Ustrd></RmtInf>` : ''}${ret}</TxDtls>`
        : '';
    return `      <Ntry>
        <Amt Ccy="EUR">${amount(e.cents)}</Amt>
        <CdtDbtInd>${indicator(e.cents)}</CdtDbtInd>
        <Sts>BOOK</Sts>
        <BookgDt><Dt>${e.date}</Dt></BookgDt>
        <ValDt><Dt>${e.date}</Dt></ValDt>
        <AcctSvcrRef>${e.bankReference ?? `T${randomUUID().replace(/-/g, '').slice(0, 30)}`}</AcctSvcrRef>
        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>${e.family ?? 'ICDT'}</Cd><SubFmlyCd>${e.subFamily ?? 'ESCT'}</SubFmlyCd></Fmly></Domn></BkTxCd>
        ${e.text && !details ? `<AddtlNtryInf>${e.text}</AddtlNtryInf>` : ''}
        ${batch || details ? `<NtryDtls>${batch}${details}</NtryDtls>` : ''}
      </Ntry>`;
  };
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>STMT-${randomUUID().slice(0, 8)}</MsgId><CreDtTm>${last}T06:00:00Z</CreDtTm></GrpHdr>
    <Stmt>
      <Id>STMT-${randomUUID().slice(0, 8)}</Id>
      <FrToDt><FrDtTm>${first}T00:00:00Z</FrDtTm><ToDtTm>${last}T23:59:59Z</ToDtTm></FrToDt>
      <Acct><Id><IBAN>PT50000201231234567890154</IBAN></Id><Ccy>EUR</Ccy></Acct>
      <Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">0.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>${first}</Dt></Dt></Bal>
      <Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">${amount(closing)}</Amt><CdtDbtInd>${indicator(closing)}</CdtDbtInd><Dt><Dt>${last}</Dt></Dt></Bal>
${entries.map(entry).join('\n')}
    </Stmt>
  </BkToCstmrStmt>
</Document>
`;
}

export interface ImportedLine {
  id: string;
  bankAmountCents: number;
  kind: string;
  status: string;
  differenceCents: number | null;
  returnReason: string | null;
}

/**
 * A statement through the product's own path: `POST /v2/admin/statements/imports` with what the
 * console's preview saw (and the admin's note when its balances disagree), the job followed until it
 * is done.
 */
export async function importCamt(
  world: SepaWorld,
  xml: string,
  params: ImportParams = {},
): Promise<StatementImportResult> {
  const bytes = new Uint8Array(Buffer.from(xml, 'utf8'));
  const path = importPath(`extrato-${randomUUID().slice(0, 8)}.xml`, previewOf(bytes), params);
  const posted = await expectStatus<{ job: StatementImportJob }>(
    await world.call('POST', path, { body: xml, headers: { 'content-type': 'application/octet-stream' } }),
    202,
  );
  let job = posted.job;
  for (let attempt = 0; job.status === 'RUNNING' && attempt < 600; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    job = await expectStatus<StatementImportJob>(
      await world.call('GET', `/v2/admin/statements/imports/${job.id}`),
      200,
    );
  }
  expect(job).toMatchObject({ status: 'DONE', errorCode: null });
  return job.result!;
}

/** `importCamt`, then the file's lines as the console reads them, in the statement's order. */
export async function importThroughApi(world: SepaWorld, xml: string): Promise<ImportedLine[]> {
  const { statementFileId } = await importCamt(world, xml);
  const page = await expectStatus<{ items: (ImportedLine & { lineNumber: number })[] }>(
    await world.call('GET', `/v2/admin/statements/lines?statementFileId=${statementFileId}&limit=100`),
    200,
  );
  return page.items.sort((a, b) => a.lineNumber - b.lineNumber);
}
