import { isIsoDate, isTarget2BusinessDay } from '../business-days';
import { checkPayableIban, isValidBicFormat } from '../iban';
import { decimalToCents } from '../money';
import { list, parseXmlSafely, text } from '../xml';
import { identifierProblem, SEPA_TEXT } from './transliterate';
import { MAX_AMOUNT_CENTS, NAME_MAX, REMITTANCE_MAX } from './validate-batch';

export interface Pain001Transaction {
  endToEndId: string;
  amountText: string;
  amountCents: number | null;
  currency: string | null;
  creditorName: string;
  creditorIban: string;
  creditorBic: string | null;
  remittance: string[];
  structuredRemittance: boolean;
}

export interface Pain001Payment {
  paymentInformationId: string;
  executionDate: string;
  numberOfTransactions: string | null;
  controlSum: string | null;
  chargeBearer: string | null;
  serviceLevel: string | null;
  debtorName: string;
  debtorIban: string;
  debtorBic: string | null;
  transactions: Pain001Transaction[];
}

export interface Pain001File {
  namespace: string;
  messageId: string;
  initiatingPartyName: string;
  numberOfTransactions: string | null;
  controlSum: string | null;
  payments: Pain001Payment[];
}

export type Pain001Read = { ok: true; file: Pain001File } | { ok: false; code: string; line: number };

const ARRAYS = new Set(['PmtInf', 'CdtTrfTxInf', 'Ustrd', 'Strd']);

/** Reads a pain.001 (.03 or .09) credit-transfer file into plain strings, for checks and reconciliation. */
export function readPain001(xml: string): Pain001Read {
  const parsed = parseXmlSafely(xml, ARRAYS);
  if (!parsed.ok) return { ok: false, code: parsed.code, line: parsed.line ?? 1 };
  const doc = parsed.doc.Document as Record<string, unknown> | undefined;
  const root = doc?.CstmrCdtTrfInitn;
  if (!root) return { ok: false, code: 'NOT_PAIN001', line: 1 };
  // The parser drops namespace declarations along with prefixes, so read the root's from the text.
  const namespace =
    /<(?:[\w.-]+:)?Document\b[^>]*?\sxmlns(?::[\w.-]+)?="(urn:iso:std:iso:20022:tech:xsd:pain\.001[^"]*)"/.exec(
      xml,
    )?.[1] ?? '';
  const s = (node: unknown, ...path: string[]) => text(node, ...path) ?? '';
  return {
    ok: true,
    file: {
      namespace,
      messageId: s(root, 'GrpHdr', 'MsgId'),
      initiatingPartyName: s(root, 'GrpHdr', 'InitgPty', 'Nm'),
      numberOfTransactions: text(root, 'GrpHdr', 'NbOfTxs'),
      controlSum: text(root, 'GrpHdr', 'CtrlSum'),
      payments: list(root, 'PmtInf').map((p) => ({
        paymentInformationId: s(p, 'PmtInfId'),
        executionDate: text(p, 'ReqdExctnDt', 'Dt') ?? s(p, 'ReqdExctnDt'),
        numberOfTransactions: text(p, 'NbOfTxs'),
        controlSum: text(p, 'CtrlSum'),
        chargeBearer: text(p, 'ChrgBr'),
        serviceLevel: text(p, 'PmtTpInf', 'SvcLvl', 'Cd'),
        debtorName: s(p, 'Dbtr', 'Nm'),
        debtorIban: s(p, 'DbtrAcct', 'Id', 'IBAN'),
        debtorBic: text(p, 'DbtrAgt', 'FinInstnId', 'BIC') ?? text(p, 'DbtrAgt', 'FinInstnId', 'BICFI'),
        transactions: list(p, 'CdtTrfTxInf').map((t) => {
          const amountText = s(t, 'Amt', 'InstdAmt');
          const amountCents = amountText.startsWith('-') ? null : decimalToCents(amountText);
          const instd = list(t, 'Amt', 'InstdAmt')[0] as Record<string, unknown> | undefined;
          return {
            endToEndId: s(t, 'PmtId', 'EndToEndId'),
            amountText,
            amountCents,
            currency: typeof instd?.['@Ccy'] === 'string' ? (instd['@Ccy'] as string) : null,
            creditorName: s(t, 'Cdtr', 'Nm'),
            creditorIban: s(t, 'CdtrAcct', 'Id', 'IBAN'),
            creditorBic: text(t, 'CdtrAgt', 'FinInstnId', 'BIC') ?? text(t, 'CdtrAgt', 'FinInstnId', 'BICFI'),
            remittance: list(t, 'RmtInf', 'Ustrd').map((u) => String(u)),
            structuredRemittance: list(t, 'RmtInf', 'Strd').length > 0,
          };
        }),
      })),
    },
  };
}

export interface Finding {
  /** Where: `GrpHdr`, `PmtInf[1]`, `PmtInf[1]/CdtTrfTxInf[2]` (1-based). */
  location: string;
  field: string;
  code: string;
  endToEndId?: string;
}

const decimals = (v: string) => (v.includes('.') ? v.length - v.indexOf('.') - 1 : 0);

/**
 * The EPC rules the ISO schema does not check (character set, 70/140 limits, identifiers, sums,
 * SLEV/SEPA, EUR with two decimals, TARGET2 date, IBANs of SEPA countries). Schema validation is
 * the caller's second layer.
 */
export function checkPain001(file: Pain001File): Finding[] {
  const out: Finding[] = [];
  const text = (location: string, field: string, value: string, max: number, endToEndId?: string) => {
    const base = endToEndId ? { location, field, endToEndId } : { location, field };
    if (value.length > max) out.push({ ...base, code: 'TOO_LONG' });
    if (!SEPA_TEXT.test(value)) out.push({ ...base, code: 'INVALID_CHARACTERS' });
  };
  const id = (location: string, field: string, value: string, endToEndId?: string) => {
    const p = identifierProblem(value);
    if (p) out.push(endToEndId ? { location, field, code: p, endToEndId } : { location, field, code: p });
  };
  id('GrpHdr', 'MsgId', file.messageId);
  text('GrpHdr', 'InitgPty/Nm', file.initiatingPartyName, NAME_MAX);
  let fileCount = 0;
  let fileSum = 0;
  const seen = new Set<string>();
  file.payments.forEach((p, pi) => {
    const at = `PmtInf[${pi + 1}]`;
    id(at, 'PmtInfId', p.paymentInformationId);
    if (p.chargeBearer !== 'SLEV') out.push({ location: at, field: 'ChrgBr', code: 'NOT_SLEV' });
    if (p.serviceLevel !== 'SEPA') out.push({ location: at, field: 'PmtTpInf/SvcLvl/Cd', code: 'NOT_SEPA' });
    if (!isIsoDate(p.executionDate)) out.push({ location: at, field: 'ReqdExctnDt', code: 'INVALID_DATE' });
    else if (!isTarget2BusinessDay(p.executionDate))
      out.push({ location: at, field: 'ReqdExctnDt', code: 'NOT_BUSINESS_DAY' });
    text(at, 'Dbtr/Nm', p.debtorName, NAME_MAX);
    const debtorIbanProblem = ibanProblem(p.debtorIban);
    if (debtorIbanProblem) out.push({ location: at, field: 'DbtrAcct/Id/IBAN', code: debtorIbanProblem });
    if (p.debtorBic && !isValidBicFormat(p.debtorBic))
      out.push({ location: at, field: 'DbtrAgt/FinInstnId', code: 'INVALID_BIC' });
    let sum = 0;
    p.transactions.forEach((t, ti) => {
      const loc = `${at}/CdtTrfTxInf[${ti + 1}]`;
      const e2e = t.endToEndId;
      const f = (field: string, code: string) => out.push({ location: loc, field, code, endToEndId: e2e });
      id(loc, 'PmtId/EndToEndId', e2e, e2e);
      if (seen.has(e2e)) f('PmtId/EndToEndId', 'DUPLICATE');
      seen.add(e2e);
      if (t.currency !== 'EUR') f('Amt/InstdAmt/@Ccy', 'NOT_EUR');
      if (t.amountCents == null || decimals(t.amountText) > 2) f('Amt/InstdAmt', 'INVALID_AMOUNT');
      else if (t.amountCents <= 0 || t.amountCents > MAX_AMOUNT_CENTS) f('Amt/InstdAmt', 'OUT_OF_RANGE');
      else {
        if (decimals(t.amountText) !== 2) f('Amt/InstdAmt', 'NOT_TWO_DECIMALS');
        sum += t.amountCents;
      }
      text(loc, 'Cdtr/Nm', t.creditorName, NAME_MAX, e2e);
      const creditorIbanProblem = ibanProblem(t.creditorIban);
      if (creditorIbanProblem) f('CdtrAcct/Id/IBAN', creditorIbanProblem);
      if (t.creditorBic && !isValidBicFormat(t.creditorBic)) f('CdtrAgt/FinInstnId', 'INVALID_BIC');
      if (t.remittance.length > 1) f('RmtInf/Ustrd', 'MORE_THAN_ONE');
      if (t.remittance.length > 0 && t.structuredRemittance) f('RmtInf', 'USTRD_AND_STRD');
      for (const u of t.remittance) text(loc, 'RmtInf/Ustrd', u, REMITTANCE_MAX, e2e);
    });
    checkTotals(out, at, p.numberOfTransactions, p.controlSum, p.transactions.length, sum);
    fileCount += p.transactions.length;
    fileSum += sum;
  });
  checkTotals(out, 'GrpHdr', file.numberOfTransactions, file.controlSum, fileCount, fileSum);
  return out;
}

/** `INVALID_IBAN` for anything not already a valid IBAN in electronic form; else `IBAN_NOT_SEPA` outside SEPA. */
function ibanProblem(written: string): 'INVALID_IBAN' | 'IBAN_NOT_SEPA' | null {
  const check = checkPayableIban(written);
  if (check.iban !== written || (!check.valid && check.code !== 'IBAN_NOT_SEPA')) return 'INVALID_IBAN';
  return check.valid ? null : 'IBAN_NOT_SEPA';
}

function checkTotals(
  out: Finding[],
  location: string,
  count: string | null,
  sum: string | null,
  n: number,
  cents: number,
) {
  if (count !== String(n)) out.push({ location, field: 'NbOfTxs', code: 'MISMATCH' });
  if (sum == null) out.push({ location, field: 'CtrlSum', code: 'MISSING' });
  else {
    if (decimalToCents(sum) !== cents) out.push({ location, field: 'CtrlSum', code: 'MISMATCH' });
  }
}
