import { normalizeIban } from '../iban';
import { decimalToCents } from '../money';
import { attr, LINE, list, parseXmlSafely, text } from '../xml';
import {
  type BalanceCheck,
  combineBalances,
  type EntryKind,
  type ParseError,
  type ParseResult,
  type StatementEntry,
  unreadable,
} from './types';

const LINE_TAGS = new Set(['Ntry', 'TxDtls']);
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

function date(node: Node, tag: string): string | null {
  const d = text(node, tag, 'Dt') ?? text(node, tag, 'DtTm');
  return d && /^\d{4}-\d{2}-\d{2}/.test(d) ? d.slice(0, 10) : null;
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

/**
 * camt.053 (and the same entry structure in camt.052/054, any version) → normalised entries. Batch
 * entries are expanded into their TxDtls when those carry amounts adding up to the entry; booked
 * entries only (pending ones are reported, not imported).
 */
export function parseCamt053(input: string): ParseResult {
  const errors: ParseError[] = [];
  const parsed = parseXmlSafely(input, ARRAYS, { lineTags: LINE_TAGS });
  if (!parsed.ok) return unreadable('camt053', [{ line: parsed.line ?? 1, code: parsed.code }]);
  const doc = parsed.doc.Document as Record<string, Node> | undefined;
  const body = doc?.BkToCstmrStmt ?? doc?.BkToCstmrAcctRpt ?? doc?.BkToCstmrDbtCdtNtfctn;
  if (!body) return unreadable('camt053', [{ line: 1, code: 'NOT_CAMT' }]);
  const statements = [...list(body, 'Stmt'), ...list(body, 'Rpt'), ...list(body, 'Ntfctn')];
  const lineOf = (node: Node) => ((node as Record<string, unknown>)[LINE] as number | undefined) ?? 1;
  const entries: StatementEntry[] = [];
  const balances: BalanceCheck[] = [];
  let accountIban: string | null = null;

  for (const stmt of statements) {
    accountIban ??= accountOf(stmt);
    const accountCurrency = text(stmt, 'Acct', 'Ccy');
    let opening: number | null = null;
    let closing: number | null = null;
    for (const bal of list(stmt, 'Bal')) {
      const code = text(bal, 'Tp', 'CdOrPrtry', 'Cd');
      const amount = cents(text(bal, 'Amt'));
      if (amount == null) continue;
      const value = signed(amount, text(bal, 'CdtDbtInd'));
      if (code === 'OPBD' || (code === 'PRCD' && opening == null)) opening = value;
      if (code === 'CLBD') closing = value;
    }
    let booked = 0;
    let lastLine = 1;
    for (const ntry of list(stmt, 'Ntry')) {
      const line = lineOf(ntry);
      lastLine = line;
      const details = list(ntry, 'NtryDtls');
      const txs = details.flatMap((d) => list(d, 'TxDtls'));
      const status = text(ntry, 'Sts') ?? text(ntry, 'Sts', 'Cd');
      if (status && status !== 'BOOK') {
        errors.push({ line, code: 'ENTRY_NOT_BOOKED' });
        continue;
      }
      const amount = cents(text(ntry, 'Amt'));
      const indicator = text(ntry, 'CdtDbtInd');
      const bookingDate = date(ntry, 'BookgDt') ?? date(ntry, 'ValDt');
      if (amount == null || (indicator !== 'CRDT' && indicator !== 'DBIT') || !bookingDate) {
        errors.push({
          line,
          code: amount == null ? 'INVALID_AMOUNT' : bookingDate ? 'INVALID_INDICATOR' : 'INVALID_DATE',
        });
        continue;
      }
      const total = signed(amount, indicator);
      booked += total;
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
          remittance(tx) ??
          ((tx ? list(tx, 'AddtlTxInf').map(String).join(' ') : '') || base.entryInfo || '');
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
          entries.push(make(tx, signed(txAmounts[i]!, indicator), lineOf(tx)));
        });
      } else {
        if (txs.length > 1) errors.push({ line, code: 'BATCH_NOT_EXPANDED' });
        entries.push(make(txs.length === 1 ? txs[0] : undefined, total, line));
      }
    }
    if (opening != null && closing != null) {
      const consistent = opening + booked === closing;
      balances.push({ opening, closing, consistent });
      if (!consistent) errors.push({ line: lastLine, code: 'BALANCE_MISMATCH' });
    }
  }
  return {
    format: 'camt053',
    entries,
    errors,
    balance: combineBalances(balances),
    accountIban,
    encoding: null,
    csv: null,
  };
}
