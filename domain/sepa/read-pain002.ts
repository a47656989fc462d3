import { decimalToCents } from '../money';
import { LINE, list, parseXmlSafely, text } from '../xml';
import { isKnownReasonCode } from './reason-codes';

// pain.002.001.03, Customer Payment Status Report: the bank's answer to an uploaded pain.001.
// Document/CstmrPmtStsRpt
//  ├ GrpHdr: MsgId, CreDtTm
//  ├ OrgnlGrpInfAndSts: OrgnlMsgId, OrgnlMsgNmId, OrgnlCreDtTm?, OrgnlNbOfTxs?, OrgnlCtrlSum?,
//  │                    GrpSts?, StsRsnInf*, NbOfTxsPerSts*
//  └ OrgnlPmtInfAndSts*: OrgnlPmtInfId, OrgnlNbOfTxs?, OrgnlCtrlSum?, PmtInfSts?, StsRsnInf*,
//     │                  NbOfTxsPerSts*
//     └ TxInfAndSts*: StsId?, OrgnlInstrId?, OrgnlEndToEndId?, TxSts?, StsRsnInf*, …,
//                     OrgnlTxRef?/Amt/InstdAmt@Ccy, ReqdExctnDt, Cdtr/Nm, CdtrAcct/Id/IBAN
// StsRsnInf: Orgtr?, Rsn?/(Cd | Prtry), AddtlInf*
// What the statuses mean together is decided in status-report.ts, not here.

export const PAIN002_NAMESPACE = 'urn:iso:std:iso:20022:tech:xsd:pain.002.001.03';
/** A status report lists at most the transactions of one of our files: far below the XML reader's limit. */
export const MAX_PAIN002_CHARS = 20_000_000;

export type StatusLevel = 'GROUP' | 'PAYMENT_INFORMATION' | 'TRANSACTION';
export type StatusKind = 'ACCEPTED' | 'REJECTED' | 'PENDING' | 'PARTIAL' | 'UNKNOWN';

/** ACTC technical checks passed, ACCP accepted, ACSP settlement in process, ACSC settled, ACWC accepted with change. */
export const ACCEPTED_STATUSES = ['ACTC', 'ACCP', 'ACSP', 'ACSC', 'ACWC'] as const;

/**
 * The pain.002.001.03 code lists: TransactionGroupStatus3Code (group and payment information:
 * the accepted ones, RJCT, PDNG, RCVD, PART) and TransactionIndividualStatus3Code (transaction:
 * no PART, no RCVD). Any other code, at any level, is `UNKNOWN`: kept as it came and flagged.
 */
export function statusKind(code: string, level: StatusLevel): StatusKind {
  if ((ACCEPTED_STATUSES as readonly string[]).includes(code)) return 'ACCEPTED';
  if (code === 'RJCT') return 'REJECTED';
  if (code === 'PDNG') return 'PENDING';
  if (level !== 'TRANSACTION' && code === 'RCVD') return 'PENDING';
  if (level !== 'TRANSACTION' && code === 'PART') return 'PARTIAL';
  return 'UNKNOWN';
}

export interface StatusReason {
  /** `Rsn/Cd`: an ISO external status reason code. */
  code: string | null;
  /** `Rsn/Prtry`: the bank's own code. */
  proprietary: string | null;
  additionalInfo: string[];
  /** `Orgtr/Nm`, else `Orgtr/Id/OrgId/BICOrBEI`. */
  originator: string | null;
  /** `code` has a description in `bankReasons.<CODE>`. */
  known: boolean;
}

export interface Status {
  code: string;
  kind: StatusKind;
}

/** `NbOfTxsPerSts`: how many transactions the bank puts in one status. */
export interface StatusCount {
  status: string;
  count: number | null;
  controlSumCents: number | null;
}

export interface ReportedTransaction {
  /** Line of the `TxInfAndSts` opening tag. */
  line: number;
  statusId: string | null;
  originalInstructionId: string | null;
  originalEndToEndId: string | null;
  status: Status | null;
  reasons: StatusReason[];
  /** `OrgnlTxRef/Amt/InstdAmt`, when the bank repeats it. */
  amountCents: number | null;
  currency: string | null;
  requestedExecutionDate: string | null;
  creditorName: string | null;
  creditorIban: string | null;
}

export interface ReportedPaymentInformation {
  line: number;
  originalPaymentInformationId: string;
  originalNumberOfTransactions: number | null;
  originalControlSumCents: number | null;
  status: Status | null;
  reasons: StatusReason[];
  counts: StatusCount[];
  transactions: ReportedTransaction[];
}

export interface ReportedOriginalMessage {
  line: number;
  messageId: string;
  /** `OrgnlMsgNmId`, `pain.001.001.03` for our files. */
  messageNameId: string | null;
  createdAt: string | null;
  numberOfTransactions: number | null;
  controlSumCents: number | null;
  status: Status | null;
  reasons: StatusReason[];
  counts: StatusCount[];
}

export type Pain002WarningCode =
  | 'UNKNOWN_STATUS'
  | 'UNKNOWN_REASON_CODE'
  | 'ORIGINAL_NOT_PAIN001'
  | 'INVALID_COUNT';

/** Something kept as it came but worth showing: nothing in the report was dropped for it. */
export interface Pain002Warning {
  code: Pain002WarningCode;
  /** `OrgnlPmtInfAndSts[2]/TxInfAndSts[1]/TxSts` (1-based). */
  path: string;
  line: number;
  value: string;
}

export interface Pain002Report {
  namespace: string;
  messageId: string;
  createdAt: string;
  original: ReportedOriginalMessage;
  payments: ReportedPaymentInformation[];
  warnings: Pain002Warning[];
}

export type Pain002ErrorCode =
  | 'FILE_TOO_LARGE'
  | 'DOCTYPE_NOT_ALLOWED'
  | 'MALFORMED_XML'
  | 'TOO_DEEP'
  /** Another message (pain.001, camt.053, …); `found` names its root element. */
  | 'NOT_PAIN002'
  /** A pain.002 of another version; `found` is its namespace. */
  | 'UNSUPPORTED_VERSION'
  | 'MISSING_FIELD'
  /** A single-valued element written twice: which one counts is not ours to guess. */
  | 'REPEATED_FIELD'
  | 'INVALID_DATE_TIME'
  | 'INVALID_AMOUNT';

export interface Pain002Error {
  ok: false;
  code: Pain002ErrorCode;
  line: number;
  /** The element concerned, as a path: `OrgnlPmtInfAndSts[1]/OrgnlPmtInfId`. */
  field?: string;
  found?: string;
}

export type Pain002Read = { ok: true; report: Pain002Report } | Pain002Error;

const ARRAYS = new Set(['OrgnlPmtInfAndSts', 'TxInfAndSts', 'StsRsnInf', 'AddtlInf', 'NbOfTxsPerSts']);
const LINE_TAGS = new Set(['GrpHdr', 'OrgnlGrpInfAndSts', 'OrgnlPmtInfAndSts', 'TxInfAndSts']);
const XML_CODES: ReadonlySet<string> = new Set([
  'FILE_TOO_LARGE',
  'DOCTYPE_NOT_ALLOWED',
  'MALFORMED_XML',
  'TOO_DEEP',
]);
const PAIN002_PREFIX = 'urn:iso:std:iso:20022:tech:xsd:pain.002.';
const DATE_TIME =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,9})?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)?$/;
const COUNT = /^\d{1,15}$/;

/** Thrown inside the reader only, turned into its typed result at the top. */
class Refused extends Error {
  constructor(readonly result: Pain002Error) {
    super(result.code);
  }
}

const lineOf = (node: unknown, fallback: number): number => {
  const n = node && typeof node === 'object' ? (node as Record<string, unknown>)[LINE] : undefined;
  return typeof n === 'number' ? n : fallback;
};

/** The namespace declared for the root `Document` (the reader drops declarations with prefixes). */
function rootNamespace(xml: string): string {
  const withoutComments = xml.replace(/<!--[\s\S]*?-->/g, '');
  const tag = /<(?:([\w.-]+):)?Document\b([^>]*)>/.exec(withoutComments);
  if (!tag) return '';
  const attr = tag[1] ? `xmlns:${tag[1]}` : 'xmlns';
  const m = new RegExp(`\\s${attr.replace(/\./g, '\\.')}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(tag[2]!);
  return (m?.[1] ?? m?.[2] ?? '').trim();
}

const firstElementName = (node: unknown): string =>
  node && typeof node === 'object'
    ? (Object.keys(node).find((k) => !k.startsWith('@') && !k.startsWith('#')) ?? '')
    : '';

/**
 * Reads a pain.002.001.03 Customer Payment Status Report. Every value stays text except amounts
 * (integer cents through domain/money; a malformed or negative amount refuses the report) and
 * counts. Identifiers the report is matched by (MsgId, CreDtTm, OrgnlMsgId, OrgnlPmtInfId) are
 * required; everything else is optional. A status or reason code outside the known lists is kept
 * and listed in `warnings`. Never throws: every failure is a `Pain002Error` with a line.
 */
export function readPain002(xml: string): Pain002Read {
  if (xml.length > MAX_PAIN002_CHARS) return { ok: false, code: 'FILE_TOO_LARGE', line: 1 };
  const parsed = parseXmlSafely(xml, ARRAYS, { lineTags: LINE_TAGS, maxChars: MAX_PAIN002_CHARS });
  if (!parsed.ok) {
    const code = (XML_CODES.has(parsed.code) ? parsed.code : 'MALFORMED_XML') as Pain002ErrorCode;
    return { ok: false, code, line: parsed.line ?? 1 };
  }
  const document = parsed.doc.Document;
  const root =
    document && typeof document === 'object'
      ? (document as Record<string, unknown>).CstmrPmtStsRpt
      : undefined;
  if (root === undefined) {
    const found = document === undefined ? firstElementName(parsed.doc) : firstElementName(document);
    return { ok: false, code: 'NOT_PAIN002', line: 1, found: found || '(empty)' };
  }
  const namespace = rootNamespace(xml);
  if (namespace !== PAIN002_NAMESPACE) {
    return namespace.startsWith(PAIN002_PREFIX)
      ? { ok: false, code: 'UNSUPPORTED_VERSION', line: 1, found: namespace }
      : { ok: false, code: 'NOT_PAIN002', line: 1, found: namespace || '(no namespace)' };
  }
  try {
    return { ok: true, report: readReport(root, namespace) };
  } catch (e) {
    if (e instanceof Refused) return e.result;
    throw e;
  }
}

function readReport(root: unknown, namespace: string): Pain002Report {
  const warnings: Pain002Warning[] = [];
  const refuse = (code: Pain002ErrorCode, line: number, field: string): never => {
    throw new Refused({ ok: false, code, line, field });
  };
  /** One element's text: null when absent, refused when written twice. */
  const one = (node: unknown, line: number, where: string, ...path: string[]): string | null => {
    if (list(node, ...path).length > 1) refuse('REPEATED_FIELD', line, `${where}/${path.join('/')}`);
    const v = text(node, ...path);
    return v === '' ? null : v;
  };
  const required = (node: unknown, line: number, where: string, ...path: string[]): string =>
    one(node, line, where, ...path) ?? refuse('MISSING_FIELD', line, `${where}/${path.join('/')}`);
  const amount = (node: unknown, line: number, where: string, ...path: string[]): number | null => {
    const v = one(node, line, where, ...path);
    if (v === null) return null;
    const cents = v.startsWith('-') ? null : decimalToCents(v);
    return cents ?? refuse('INVALID_AMOUNT', line, `${where}/${path.join('/')}`);
  };
  const count = (node: unknown, line: number, where: string, ...path: string[]): number | null => {
    const v = one(node, line, where, ...path);
    if (v === null) return null;
    if (COUNT.test(v)) return Number(v);
    warnings.push({ code: 'INVALID_COUNT', path: `${where}/${path.join('/')}`, line, value: v });
    return null;
  };
  const status = (
    node: unknown,
    line: number,
    where: string,
    name: string,
    level: StatusLevel,
  ): Status | null => {
    const code = one(node, line, where, name);
    if (code === null) return null;
    const kind = statusKind(code, level);
    if (kind === 'UNKNOWN')
      warnings.push({ code: 'UNKNOWN_STATUS', path: `${where}/${name}`, line, value: code });
    return { code, kind };
  };
  const reasons = (node: unknown, line: number, where: string): StatusReason[] =>
    list(node, 'StsRsnInf').map((r, i) => {
      const at = `${where}/StsRsnInf[${i + 1}]`;
      const code = one(r, line, at, 'Rsn', 'Cd');
      const known = code !== null && isKnownReasonCode(code);
      if (code !== null && !known)
        warnings.push({ code: 'UNKNOWN_REASON_CODE', path: `${at}/Rsn/Cd`, line, value: code });
      return {
        code,
        proprietary: one(r, line, at, 'Rsn', 'Prtry'),
        additionalInfo: list(r, 'AddtlInf')
          .map((a) => text(a) ?? '')
          .filter((a) => a !== ''),
        originator: one(r, line, at, 'Orgtr', 'Nm') ?? one(r, line, at, 'Orgtr', 'Id', 'OrgId', 'BICOrBEI'),
        known,
      };
    });
  const counts = (node: unknown, line: number, where: string): StatusCount[] =>
    list(node, 'NbOfTxsPerSts').map((c, i) => {
      const at = `${where}/NbOfTxsPerSts[${i + 1}]`;
      return {
        status: required(c, line, at, 'DtldSts'),
        count: count(c, line, at, 'DtldNbOfTxs'),
        controlSumCents: amount(c, line, at, 'DtldCtrlSum'),
      };
    });

  if (list(root, 'GrpHdr').length > 1) refuse('REPEATED_FIELD', 1, 'GrpHdr');
  const header = list(root, 'GrpHdr')[0];
  const headerLine = lineOf(header, 1);
  const messageId = required(header, headerLine, 'GrpHdr', 'MsgId');
  const createdAt = required(header, headerLine, 'GrpHdr', 'CreDtTm');
  if (!DATE_TIME.test(createdAt)) refuse('INVALID_DATE_TIME', headerLine, 'GrpHdr/CreDtTm');

  if (list(root, 'OrgnlGrpInfAndSts').length > 1) refuse('REPEATED_FIELD', headerLine, 'OrgnlGrpInfAndSts');
  const group = list(root, 'OrgnlGrpInfAndSts')[0];
  const G = 'OrgnlGrpInfAndSts';
  const groupLine = lineOf(group, headerLine);
  const messageNameId = one(group, groupLine, G, 'OrgnlMsgNmId');
  if (!messageNameId?.startsWith('pain.001.'))
    warnings.push({
      code: 'ORIGINAL_NOT_PAIN001',
      path: `${G}/OrgnlMsgNmId`,
      line: groupLine,
      value: messageNameId ?? '',
    });
  const original: ReportedOriginalMessage = {
    line: groupLine,
    messageId: required(group, groupLine, G, 'OrgnlMsgId'),
    messageNameId,
    createdAt: one(group, groupLine, G, 'OrgnlCreDtTm'),
    numberOfTransactions: count(group, groupLine, G, 'OrgnlNbOfTxs'),
    controlSumCents: amount(group, groupLine, G, 'OrgnlCtrlSum'),
    status: status(group, groupLine, G, 'GrpSts', 'GROUP'),
    reasons: reasons(group, groupLine, G),
    counts: counts(group, groupLine, G),
  };

  const payments = list(root, 'OrgnlPmtInfAndSts').map((p, pi): ReportedPaymentInformation => {
    const P = `OrgnlPmtInfAndSts[${pi + 1}]`;
    const line = lineOf(p, groupLine);
    return {
      line,
      originalPaymentInformationId: required(p, line, P, 'OrgnlPmtInfId'),
      originalNumberOfTransactions: count(p, line, P, 'OrgnlNbOfTxs'),
      originalControlSumCents: amount(p, line, P, 'OrgnlCtrlSum'),
      status: status(p, line, P, 'PmtInfSts', 'PAYMENT_INFORMATION'),
      reasons: reasons(p, line, P),
      counts: counts(p, line, P),
      transactions: list(p, 'TxInfAndSts').map((t, ti): ReportedTransaction => {
        const T = `${P}/TxInfAndSts[${ti + 1}]`;
        const tl = lineOf(t, line);
        const amt = list(t, 'OrgnlTxRef', 'Amt', 'InstdAmt')[0];
        const ccy = amt && typeof amt === 'object' ? (amt as Record<string, unknown>)['@Ccy'] : undefined;
        return {
          line: tl,
          statusId: one(t, tl, T, 'StsId'),
          originalInstructionId: one(t, tl, T, 'OrgnlInstrId'),
          originalEndToEndId: one(t, tl, T, 'OrgnlEndToEndId'),
          status: status(t, tl, T, 'TxSts', 'TRANSACTION'),
          reasons: reasons(t, tl, T),
          amountCents: amount(t, tl, T, 'OrgnlTxRef', 'Amt', 'InstdAmt'),
          currency: typeof ccy === 'string' ? ccy : null,
          requestedExecutionDate: one(t, tl, T, 'OrgnlTxRef', 'ReqdExctnDt'),
          creditorName: one(t, tl, T, 'OrgnlTxRef', 'Cdtr', 'Nm'),
          creditorIban: one(t, tl, T, 'OrgnlTxRef', 'CdtrAcct', 'Id', 'IBAN'),
        };
      }),
    };
  });

  return { namespace, messageId, createdAt, original, payments, warnings };
}
