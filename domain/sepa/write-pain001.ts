import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import { lisbonDateTime } from '../business-days';
import { centsToDecimal } from '../money';
import { type PreparedBatch, prepareBatch, type SepaBatch, type SepaError } from './validate-batch';

export type PainVersion = '03' | '09';

export interface WriteOptions {
  version?: PainVersion;
  /** Clock for CreDtTm and the "not in the past" check. */
  now?: Date;
}

export type WriteResult =
  | {
      ok: true;
      xml: string;
      messageId: string;
      paymentInformationId: string;
      executionDate: string;
      numberOfTransactions: number;
      controlSumCents: number;
    }
  | { ok: false; errors: SepaError[] };

export const PAIN_NAMESPACE: Record<PainVersion, string> = {
  '03': 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.03',
  '09': 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.09',
};

/** pain.001 credit-transfer file, or the list of reasons it cannot be written. Never an invalid file. */
export function writePain001(batch: SepaBatch, options: WriteOptions = {}): WriteResult {
  const now = options.now ?? new Date();
  const prepared = prepareBatch(batch, { today: lisbonDateTime(now).slice(0, 10) });
  if (!prepared.ok) return prepared;
  const b = prepared.batch;
  const xml = buildXml(b, options.version ?? '03', lisbonDateTime(now));
  return {
    ok: true,
    xml,
    messageId: b.messageId,
    paymentInformationId: b.paymentInformationId,
    executionDate: b.executionDate,
    numberOfTransactions: b.transactions.length,
    controlSumCents: b.controlSumCents,
  };
}

function agent(parent: XMLBuilder, name: string, bic: string | null, version: PainVersion): void {
  const fin = parent.ele(name).ele('FinInstnId');
  if (bic) fin.ele(version === '03' ? 'BIC' : 'BICFI').txt(bic);
  else fin.ele('Othr').ele('Id').txt('NOTPROVIDED');
}

// Element order follows the xs:sequence of each schema; every value is a pre-formatted string.
function buildXml(b: PreparedBatch, version: PainVersion, creationDateTime: string): string {
  const count = String(b.transactions.length);
  const sum = centsToDecimal(b.controlSumCents);
  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  const root = doc
    .ele(PAIN_NAMESPACE[version], 'Document')
    .att('http://www.w3.org/2000/xmlns/', 'xmlns:xsi', 'http://www.w3.org/2001/XMLSchema-instance')
    .ele('CstmrCdtTrfInitn');
  const hdr = root.ele('GrpHdr');
  hdr.ele('MsgId').txt(b.messageId);
  hdr.ele('CreDtTm').txt(creationDateTime);
  hdr.ele('NbOfTxs').txt(count);
  hdr.ele('CtrlSum').txt(sum);
  hdr.ele('InitgPty').ele('Nm').txt(b.initiatingPartyName);

  const pmt = root.ele('PmtInf');
  pmt.ele('PmtInfId').txt(b.paymentInformationId);
  pmt.ele('PmtMtd').txt('TRF');
  pmt.ele('BtchBookg').txt(b.batchBooking ? 'true' : 'false');
  pmt.ele('NbOfTxs').txt(count);
  pmt.ele('CtrlSum').txt(sum);
  pmt.ele('PmtTpInf').ele('SvcLvl').ele('Cd').txt('SEPA');
  if (version === '03') pmt.ele('ReqdExctnDt').txt(b.executionDate);
  else pmt.ele('ReqdExctnDt').ele('Dt').txt(b.executionDate);
  pmt.ele('Dbtr').ele('Nm').txt(b.debtor.name);
  pmt.ele('DbtrAcct').ele('Id').ele('IBAN').txt(b.debtor.iban);
  agent(pmt, 'DbtrAgt', b.debtor.bic, version);
  pmt.ele('ChrgBr').txt('SLEV');

  for (const tx of b.transactions) {
    const t = pmt.ele('CdtTrfTxInf');
    t.ele('PmtId').ele('EndToEndId').txt(tx.endToEndId);
    t.ele('Amt').ele('InstdAmt').att('Ccy', 'EUR').txt(centsToDecimal(tx.amountCents));
    if (tx.creditorBic) agent(t, 'CdtrAgt', tx.creditorBic, version);
    t.ele('Cdtr').ele('Nm').txt(tx.creditorName);
    t.ele('CdtrAcct').ele('Id').ele('IBAN').txt(tx.creditorIban);
    if (tx.remittance) t.ele('RmtInf').ele('Ustrd').txt(tx.remittance);
  }
  return doc.end({ prettyPrint: true, headless: false });
}
