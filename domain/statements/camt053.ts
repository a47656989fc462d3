import { normalizeIban } from '../iban';
import { decimalToCents } from '../money';
import { attr, LINE, lineAt, list, type OpenElement, parseXmlSafely, text } from '../xml';
import {
  type BalanceCheck,
  bookingSpan,
  combineBalances,
  type EntryKind,
  type ParseError,
  type ParseErrorCode,
  type ParseResult,
  type SkippedEntry,
  type StatementEntry,
  type StatementInfo,
  unreadable,
} from './types';

const LINE_TAGS = new Set(['Stmt', 'Rpt', 'Ntfctn', 'Ntry', 'TxDtls']);
const ARRAYS = new Set([
  'Stmt',
  'Rpt',
  'Ntfctn',
  'Bal',
  'Ntry',
  'NtryDtls',
  'TxDtls',
  'Ustrd',
  'Strd',
  'AddtlTxInf',
]);

type Node = unknown;

/** Decimal text (always unsigned in camt) → cents, or null when it is not an amount. */
function cents(value: string | null): number | null {
  return value == null || value.startsWith('-') ? null : decimalToCents(value);
}

function isoDate(d: string | null): string | null {
  return d && /^\d{4}-\d{2}-\d{2}/.test(d) ? d.slice(0, 10) : null;
}

function date(node: Node, tag: string): string | null {
  return isoDate(text(node, tag, 'Dt') ?? text(node, tag, 'DtTm'));
}

function signed(amount: number, indicator: string | null): number {
  return indicator === 'DBIT' ? -amount : amount;
}

function nonEmpty(v: string | null): string | null {
  return v == null || v === '' || v === 'NOTPROVIDED' ? null : v;
}

function kindOf(ntry: Node, tx: Node | undefined): EntryKind {
  const family = text(ntry, 'BkTxCd', 'Domn', 'Fmly', 'Cd');
  const sub = text(ntry, 'BkTxCd', 'Domn', 'Fmly', 'SubFmlyCd');
  const prtry = text(ntry, 'BkTxCd', 'Prtry', 'Cd') ?? '';
  if ((tx && text(tx, 'RtrInf', 'Rsn', 'Cd')) || sub === 'RRTN' || /RRTN|RETURN/i.test(prtry))
    return 'return';
  if (text(ntry, 'RvslInd') === 'true') return 'return';
  if (sub === 'CHRG' || family === 'CHRG' || sub === 'FEES' || /CHRG|FEE/i.test(prtry)) return 'fee';
  if (family === 'ICDT' || family === 'RCDT' || /TRF|SCT|ICDT|RCDT/i.test(prtry)) return 'transfer';
  return 'other';
}

function remittance(tx: Node | undefined): string | null {
  if (!tx) return null;
  const ustrd = list(tx, 'RmtInf', 'Ustrd').map((u) => (typeof u === 'string' ? u.trim() : ''));
  const strd = list(tx, 'RmtInf', 'Strd')
    .map((s) => text(s, 'CdtrRefInf', 'Ref'))
    .filter((s): s is string => !!s);
  const all = [...ustrd, ...strd].filter((s) => s !== '');
  return all.length ? all.join(' ') : null;
}

function counterparty(
  tx: Node | undefined,
  indicator: string | null,
): { name: string | null; iban: string | null } {
  if (!tx) return { name: null, iban: null };
  // The other side: the creditor of our debits, the debtor of our credits (a return names the original creditor).
  const order = indicator === 'DBIT' ? ['Cdtr', 'Dbtr'] : ['Dbtr', 'Cdtr'];
  for (const role of order) {
    const name = text(tx, 'RltdPties', role, 'Nm') ?? text(tx, 'RltdPties', role, 'Pty', 'Nm');
    const iban = text(tx, 'RltdPties', `${role}Acct`, 'Id', 'IBAN');
    if (name || iban) return { name: nonEmpty(name), iban: iban ? normalizeIban(iban) : null };
  }
  return { name: null, iban: null };
}

/** The statement's account: its IBAN, else the other identification the bank gives. */
function accountOf(stmt: Node): string | null {
  const iban = nonEmpty(text(stmt, 'Acct', 'Id', 'IBAN'));
  if (iban) return normalizeIban(iban);
  return nonEmpty(text(stmt, 'Acct', 'Id', 'Othr', 'Id'))?.trim() ?? null;
}

/** What one `Ntry` gives: its entries (several when a batch is expanded), its errors, its signed total. */
interface EntryRead {
  entries: StatementEntry[];
  errors: ParseError[];
  booked: number;
  line: number;
  /** Set when the entry is not booked: read, listed, not imported (its `statement` is filled in later). */
  skipped: SkippedEntry | null;
}

/**
 * `Sts` (camt.053.001.02–.07) or `Sts/Cd` (.08 on): booked entries are imported; pending (PDNG, and
 * FUTR, booked in the future) and informational (INFO) ones are listed as skipped; anything else is an
 * error. No status at all is read as booked, as banks that leave it out book everything they report.
 */
const SKIPPED_STATUS = new Map<string, SkippedEntry['reason']>([
  ['PDNG', 'PENDING'],
  ['FUTR', 'PENDING'],
  ['INFO', 'INFORMATION'],
]);

const lineOf = (node: Node) => ((node as Record<string, unknown>)[LINE] as number | undefined) ?? 1;

function readEntry(ntry: Node, accountCurrency: string | null): EntryRead {
  const line = lineOf(ntry);
  const read: EntryRead = { entries: [], errors: [], booked: 0, line, skipped: null };
  const details = list(ntry, 'NtryDtls');
  const txs = details.flatMap((d) => list(d, 'TxDtls'));
  const status = text(ntry, 'Sts') ?? text(ntry, 'Sts', 'Cd');
  const amount = cents(text(ntry, 'Amt'));
  const indicator = text(ntry, 'CdtDbtInd');
  if (status && status !== 'BOOK') {
    const reason = SKIPPED_STATUS.get(status);
    if (!reason) read.errors.push({ line, code: 'UNKNOWN_ENTRY_STATUS' });
    else
      read.skipped = {
        statement: 0,
        line,
        reason,
        bookingDate: date(ntry, 'BookgDt') ?? date(ntry, 'ValDt'),
        amountCents: amount == null ? null : signed(amount, indicator),
        description: remittance(txs[0]) ?? text(ntry, 'AddtlNtryInf') ?? '',
      };
    return read;
  }
  const bookingDate = date(ntry, 'BookgDt') ?? date(ntry, 'ValDt');
  if (amount == null || (indicator !== 'CRDT' && indicator !== 'DBIT') || !bookingDate) {
    read.errors.push({
      line,
      code: amount == null ? 'INVALID_AMOUNT' : bookingDate ? 'INVALID_INDICATOR' : 'INVALID_DATE',
    });
    return read;
  }
  const total = signed(amount, indicator);
  read.booked = total;
  const batch = details.map((d) => list(d, 'Btch')[0]).find((b) => b != null);
  const batchId = nonEmpty(text(batch, 'PmtInfId')) ?? nonEmpty(text(batch, 'MsgId'));
  const currency = attr(ntry, 'Ccy', 'Amt') ?? accountCurrency ?? 'EUR';
  const base = {
    bookingDate,
    valueDate: date(ntry, 'ValDt'),
    currency,
    bankReference: nonEmpty(text(ntry, 'AcctSvcrRef')) ?? nonEmpty(text(ntry, 'NtryRef')),
    entryInfo: text(ntry, 'AddtlNtryInf'),
  };
  const make = (tx: Node | undefined, amountCents: number, lineNumber: number): StatementEntry => {
    const party = counterparty(tx, indicator);
    const description =
      remittance(tx) ?? ((tx ? list(tx, 'AddtlTxInf').map(String).join(' ') : '') || base.entryInfo || '');
    return {
      bookingDate: base.bookingDate,
      valueDate: base.valueDate,
      amountCents,
      currency: base.currency,
      description,
      counterpartyName: party.name,
      counterpartyIban: party.iban,
      bankReference: base.bankReference,
      endToEndId: tx ? nonEmpty(text(tx, 'Refs', 'EndToEndId')) : null,
      batchId: batchId ?? (tx ? (nonEmpty(text(tx, 'Refs', 'PmtInfId')) ?? null) : null),
      kind: kindOf(ntry, tx),
      returnReason: tx ? (text(tx, 'RtrInf', 'Rsn', 'Cd') ?? text(tx, 'RtrInf', 'Rsn', 'Prtry')) : null,
      lineNumber,
    };
  };
  const txAmounts = txs.map((tx) => cents(text(tx, 'AmtDtls', 'TxAmt', 'Amt')) ?? cents(text(tx, 'Amt')));
  const expandable =
    txs.length > 1 &&
    txAmounts.every((a) => a != null) &&
    txAmounts.reduce<number>((s, a) => s + (a ?? 0), 0) === amount;
  if (expandable) {
    txs.forEach((tx, i) => {
      read.entries.push(make(tx, signed(txAmounts[i]!, indicator), lineOf(tx)));
    });
  } else {
    if (txs.length > 1) read.errors.push({ line, code: 'BATCH_NOT_EXPANDED' });
    read.entries.push(make(txs.length === 1 ? txs[0] : undefined, total, line));
  }
  return read;
}

/** An `Ntry` read as it closed, in the tree in its place; `ntry` kept only when the account currency could change it. */
class EarlyEntry {
  constructor(
    readonly read: EntryRead,
    readonly currency: string | null,
    readonly ntry: Node | undefined,
  ) {}
}

/** The XML reader's refusals (domain/xml.ts), each its own parse error. */
const XML_ERRORS: readonly ParseErrorCode[] = [
  'FILE_TOO_LARGE',
  'DOCTYPE_NOT_ALLOWED',
  'MALFORMED_XML',
  'TOO_DEEP',
];

/**
 * Why the XML could not be read. A file whose text does not end with the closing tag of the element
 * it opens with was cut short (UNCLOSED_XML, at its last line), whatever the reader tripped on first
 * at the cut; other faults keep the reader's code and line.
 */
function unparsed(input: string, reason: string, line: number): ParseError {
  const code = XML_ERRORS.find((known) => known === reason) ?? 'MALFORMED_XML';
  if (code !== 'MALFORMED_XML') return { line, code };
  const root = /<([A-Za-z_][\w.:-]*)/.exec(input.replace(/<[?!][^>]*>/g, ''))?.[1];
  const body = input.trimEnd();
  const closed = root != null && new RegExp(`</${root.replace(/\./g, '\\.')}\\s*>$`).test(body);
  return closed ? { line, code } : { line: lineAt(body, body.length), code: 'UNCLOSED_XML' };
}

const BODIES = ['BkToCstmrStmt', 'BkToCstmrAcctRpt', 'BkToCstmrDbtCdtNtfctn'];
const STATEMENTS = ['Stmt', 'Rpt', 'Ntfctn'];
const NTRY = new Set(['Ntry']);

export interface Camt053Options {
  /**
   * Told of the entries of each `Ntry` as soon as it has been read, before the rest of the file (the
   * preview's first rows). The result is still what the whole file says: a later element can change it
   * (a file cut short is unreadable); its `entries` are the objects given here when it does not.
   */
  onEntries?: (entries: StatementEntry[]) => void;
}

/**
 * camt.053 (and the same entry structure in camt.052/054, any version) → normalised entries. Batch
 * entries are expanded into their TxDtls when those carry amounts adding up to the entry; booked
 * entries only (pending ones are reported, not imported).
 *
 * Each `Ntry` in its usual place (Document / body / statement) is read as it closes, with the
 * account's currency as the statement says it so far, and its reading stays in the tree in its place
 * (the element itself only while a later `Acct` could still change it). The walk over the whole tree
 * afterwards takes that reading, or reads the entry again when the currency did change (decision 0103).
 */
export function parseCamt053(input: string, options: Camt053Options = {}): ParseResult {
  const readEarly = (_name: string, ntry: unknown, open: readonly OpenElement[]): EarlyEntry | undefined => {
    const stmt = open[3];
    if (open.length !== 4 || open[1]!.name !== 'Document' || !BODIES.includes(open[2]!.name)) return;
    if (!stmt || !STATEMENTS.includes(stmt.name)) return;
    // The statement's first Acct, once there, is final: a currency read from it now is the walk's too.
    const currency = text(stmt.obj, 'Acct', 'Ccy');
    const read = readEntry(ntry, currency);
    if (read.entries.length) options.onEntries?.(read.entries);
    const mayChange = currency === null && read.entries.length > 0 && attr(ntry, 'Ccy', 'Amt') === null;
    return new EarlyEntry(read, currency, mayChange ? ntry : undefined);
  };
  const errors: ParseError[] = [];
  const parsed = parseXmlSafely(input, ARRAYS, {
    lineTags: LINE_TAGS,
    onClose: { tags: NTRY, handle: readEarly },
  });
  if (!parsed.ok) return unreadable('camt053', [unparsed(input, parsed.code, parsed.line ?? 1)]);
  const doc = parsed.doc.Document as Record<string, Node> | undefined;
  const body = doc?.BkToCstmrStmt ?? doc?.BkToCstmrAcctRpt ?? doc?.BkToCstmrDbtCdtNtfctn;
  if (!body) return unreadable('camt053', [{ line: 1, code: 'NOT_CAMT' }]);
  const statements = [...list(body, 'Stmt'), ...list(body, 'Rpt'), ...list(body, 'Ntfctn')];
  const entries: StatementEntry[] = [];
  const infos: StatementInfo[] = [];
  const skipped: SkippedEntry[] = [];
  const balances: BalanceCheck[] = [];

  for (const [index, stmt] of statements.entries()) {
    const accountCurrency = text(stmt, 'Acct', 'Ccy');
    let opening: { cents: number; date: string | null } | null = null;
    let closing: { cents: number; date: string | null } | null = null;
    let balanceCurrency: string | null = null;
    for (const bal of list(stmt, 'Bal')) {
      const code = text(bal, 'Tp', 'CdOrPrtry', 'Cd');
      const amount = cents(text(bal, 'Amt'));
      if (amount == null) continue;
      const value = { cents: signed(amount, text(bal, 'CdtDbtInd')), date: date(bal, 'Dt') };
      if (code === 'OPBD' || (code === 'PRCD' && opening == null)) opening = value;
      if (code === 'CLBD') closing = value;
      if (code === 'OPBD' || code === 'PRCD' || code === 'CLBD') balanceCurrency ??= attr(bal, 'Ccy', 'Amt');
    }
    const firstEntry = entries.length;
    let booked = 0;
    let lastLine = lineOf(stmt);
    for (const ntry of list(stmt, 'Ntry')) {
      const read =
        ntry instanceof EarlyEntry
          ? ntry.ntry === undefined || ntry.currency === accountCurrency
            ? ntry.read
            : readEntry(ntry.ntry, accountCurrency)
          : readEntry(ntry, accountCurrency);
      lastLine = read.line;
      booked += read.booked;
      for (const error of read.errors) errors.push({ ...error, statement: index });
      for (const entry of read.entries) entries.push(entry);
      if (read.skipped) skipped.push({ ...read.skipped, statement: index });
    }
    const span = bookingSpan(entries, firstEntry);
    const from = text(stmt, 'FrToDt', 'FrDtTm') ?? text(stmt, 'FrToDt', 'FrDt');
    const to = text(stmt, 'FrToDt', 'ToDtTm') ?? text(stmt, 'FrToDt', 'ToDt');
    let balance: BalanceCheck | null = null;
    if (opening && closing) {
      balance = {
        opening: opening.cents,
        closing: closing.cents,
        consistent: opening.cents + booked === closing.cents,
      };
      balances.push(balance);
      if (!balance.consistent) errors.push({ line: lastLine, code: 'BALANCE_MISMATCH', statement: index });
    } else if (opening) {
      // An opening balance states a statement; its closing one is what says it is complete.
      errors.push({ line: lineOf(stmt), code: 'MISSING_CLOSING_BALANCE', statement: index });
    }
    infos.push({
      accountIban: accountOf(stmt),
      currency: accountCurrency ?? balanceCurrency ?? entries[firstEntry]?.currency ?? null,
      statementId: nonEmpty(text(stmt, 'Id')),
      sequence: nonEmpty(text(stmt, 'ElctrncSeqNb')) ?? nonEmpty(text(stmt, 'LglSeqNb')),
      periodStart: isoDate(from) ?? opening?.date ?? span.first,
      periodEnd: isoDate(to) ?? closing?.date ?? span.last,
      balance,
      firstEntry,
      entryCount: entries.length - firstEntry,
    });
  }
  errors.sort((a, b) => a.line - b.line);
  return {
    format: 'camt053',
    entries,
    statements: infos,
    skipped,
    errors,
    balance: combineBalances(balances),
    accountIban: infos[0]?.accountIban ?? null,
    encoding: null,
    csv: null,
  };
}
