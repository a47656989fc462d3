import { normalizeIban } from '../iban';
import { parseAmount } from '../money';
import { ibanIn } from './account';
import { kindInText, reasonCodeIn } from './entry-text';
import {
  type BalanceCheck,
  bookingSpan,
  combineBalances,
  type EntryKind,
  type ParseError,
  type ParseResult,
  type StatementEntry,
  type StatementInfo,
} from './types';

const MAX_LINE = 10_000;

interface Field {
  tag: string;
  value: string;
  extra: string[];
  line: number;
}

function yymmdd(s: string): string | null {
  const m = /^(\d{2})(\d{2})(\d{2})$/.exec(s);
  if (!m) return null;
  const yy = Number(m[1]);
  const year = yy < 80 ? 2000 + yy : 1900 + yy;
  const iso = `${year}-${m[2]}-${m[3]}`;
  const d = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === iso ? iso : null;
}

function mtAmount(s: string): number | null {
  if (!/^\d+(,\d{0,2})?$/.test(s)) return null;
  const r = parseAmount(s.endsWith(',') ? s.slice(0, -1) : s);
  return r.ok ? r.cents : null;
}

interface Balance {
  cents: number;
  currency: string;
  date: string;
}

/** `C131016EUR84349,74` → signed cents, currency and date. */
function balanceField(v: string): Balance | null {
  const m = /^([CD])(\d{6})([A-Z]{3})(\d+,\d*)/.exec(v.trim());
  const amount = m ? mtAmount(m[4]!) : null;
  const date = m ? yymmdd(m[2]!) : null;
  if (!m || amount == null || !date) return null;
  return { cents: m[1] === 'D' ? -amount : amount, currency: m[3]!, date };
}

interface Details {
  description: string;
  counterpartyName: string | null;
  counterpartyIban: string | null;
  endToEndId: string | null;
  returnReason: string | null;
  code: string | null;
}

const SEPA_KEYWORDS = /(EREF|KREF|MREF|CRED|DEBT|SVWZ|ABWA|ABWE|COAM|OAMT|IBAN|BIC)\+/g;
const DUTCH_TAGS =
  /\/(TRTP|EREF|NAME|REMI|IBAN|BIC|CSID|MARF|RTRN|ORDP|BENM|PREF|ID|ADDR|CDTRREF|CDTRREFTP|CD|ISDT|FX|ULTC|ULTD|PURP)\//g;

function clean(v: string | undefined): string | null {
  const t = v?.replace(/\s+/g, ' ').trim() ?? '';
  return t === '' || t === 'NOTPROVIDED' ? null : t;
}

function asIban(v: string | null): string | null {
  const iban = v ? normalizeIban(v) : '';
  return /^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(iban) ? iban : null;
}

/** German `?NN` sub-fields with SEPA keywords (EREF+, SVWZ+), Dutch `/TAG/value`, or free text. */
export function parseField86(raw: string): Details {
  const text = raw.trim();
  if (/^\d{3}\?/.test(text) || /^\?\d{2}/.test(text)) {
    const code = /^\d{3}/.test(text) ? text.slice(0, 3) : null;
    const sub = new Map<string, string>();
    for (const part of text.split('?').slice(1)) {
      const key = part.slice(0, 2);
      sub.set(key, (sub.get(key) ?? '') + part.slice(2));
    }
    // A sub-field shorter than 27 characters ends a logical line: a keyword's value stops there.
    const purpose = [...sub.entries()]
      .filter(([k]) => (k >= '20' && k <= '29') || (k >= '60' && k <= '63'))
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([, v]) => (v.length < 27 ? `${v}\n` : v))
      .join('');
    const keyed = new Map<string, string>();
    for (const logical of purpose.split('\n')) {
      const marks = [...logical.matchAll(SEPA_KEYWORDS)];
      marks.forEach((m, i) => {
        const end = marks[i + 1]?.index ?? logical.length;
        if (!keyed.has(m[1]!)) keyed.set(m[1]!, logical.slice(m.index! + m[0].length, end));
      });
    }
    const posting = clean(sub.get('00'));
    const remittanceText = clean(keyed.get('SVWZ')) ?? clean(purpose.replace(/\n/g, ' '));
    return {
      description: [posting, remittanceText].filter(Boolean).join(' ') || text,
      counterpartyName: clean((sub.get('32') ?? '') + (sub.get('33') ?? '')),
      counterpartyIban: asIban(clean(sub.get('31'))),
      endToEndId: clean(keyed.get('EREF')),
      returnReason: null,
      code,
    };
  }
  const marks = [...text.matchAll(DUTCH_TAGS)];
  if (marks.length > 0 && marks[0]!.index === 0) {
    const f = new Map<string, string>();
    marks.forEach((m, i) => {
      const end = marks[i + 1]?.index ?? text.length;
      if (!f.has(m[1]!)) f.set(m[1]!, text.slice(m.index! + m[0].length, end).replace(/\/+$/, ''));
    });
    const remi = f.get('REMI')?.replace(/^(USTD|STRD)\/+(CUR\/+)?/, '');
    return {
      description: clean(remi) ?? text,
      counterpartyName: clean(f.get('NAME')),
      counterpartyIban: asIban(clean(f.get('IBAN'))),
      endToEndId: clean(f.get('EREF')),
      returnReason: clean(f.get('RTRN')),
      code: clean(f.get('TRTP')),
    };
  }
  return {
    description: text.replace(/\s+/g, ' '),
    counterpartyName: null,
    counterpartyIban: null,
    endToEndId: null,
    returnReason: null,
    code: null,
  };
}

const NO_DETAILS: Details = {
  description: '',
  counterpartyName: null,
  counterpartyIban: null,
  endToEndId: null,
  returnReason: null,
  code: null,
};

/**
 * The entry's kind from what the bank states, most explicit first: the `:61:` transaction type (`RTI`
 * returned item; `CHG`/`COM` charges and commissions), a reversal mark (`RC`/`RD`), a Dutch `/RTRN/`
 * reason, the German posting code 159 (SEPA return); then the `:86:` text (entry-text.ts: the first of
 * a return or fee word decides); then a transfer type or an EndToEndId.
 */
function kindOf(mark: string, typeCode: string, d: Details): EntryKind {
  const type = typeCode.slice(1);
  if (type === 'RTI') return 'return';
  if (type === 'CHG' || type === 'COM') return 'fee';
  if (mark.startsWith('R') || d.returnReason || d.code === '159') return 'return';
  const named = kindInText(d.description);
  if (named) return named;
  if (type === 'TRF' || d.endToEndId) return 'transfer';
  return 'other';
}

/** A customer reference that can be an EndToEndId: SWIFT characters, no spaces, at most 35, not NONREF. */
function referenceId(customerRef: string | null): string | null {
  return customerRef && customerRef !== 'NONREF' && /^[A-Za-z0-9/\-?:().,'+]{1,35}$/.test(customerRef)
    ? customerRef
    : null;
}

// Value date, entry date (MMDD, or four spaces some banks write), mark, funds code, amount (some banks
// leave out the comma of a whole amount), type, customer reference // bank reference.
const LINE_61 =
  /^(\d{6})(\d{4}| {4})?(RC|RD|C|D)([A-Z])?(\d+(?:,\d{0,2})?)([NFS][A-Z0-9]{3})([^/]*)(?:\/\/(.*))?$/;

/** A `:61:` entry waiting for the `:86:` that may follow it. */
interface PendingEntry {
  entry: StatementEntry;
  mark: string;
  typeCode: string;
  customerRef: string | null;
}

/** One `:20:` … `:62F:` block being read. */
interface OpenStatement {
  info: StatementInfo;
  opening: Balance | null;
  closing: Balance | null;
  closingLine: number;
  /** Sum of the entries read so far (signed cents). */
  sum: number;
  lastLine: number;
}

function entryDate(valueDate: string, mmdd: string | undefined): string {
  if (!mmdd || mmdd.trim() === '') return valueDate;
  const month = Number(mmdd.slice(0, 2));
  const vMonth = Number(valueDate.slice(5, 7));
  let year = Number(valueDate.slice(0, 4));
  if (month - vMonth > 6) year--;
  if (vMonth - month > 6) year++;
  const candidate = `${year}-${mmdd.slice(0, 2)}-${mmdd.slice(2)}`;
  return yymmdd(candidate.slice(2).replace(/-/g, '')) ? candidate : valueDate;
}

/**
 * Tolerant MT940: bank header lines ignored. Each `:20:` starts a statement (so does a `:25:` or an
 * opening balance after a closing one); each statement is one `StatementInfo` with its account (`:25:`),
 * identity (`:20:`, `:28C:`), balances and period. A statement without its closing balance (`:62F:`/
 * `:62M:`) is a file cut short: MISSING_CLOSING_BALANCE, the file is refused. A balance mismatch is an
 * error of its statement (decision 0120).
 */
export function parseMt940(input: string): ParseResult {
  const errors: ParseError[] = [];
  const fields: Field[] = [];
  const lines = input.split(/\r\n|\r|\n/);
  lines.forEach((raw, i) => {
    const line = i + 1;
    if (raw.length > MAX_LINE) {
      errors.push({ line, code: 'LINE_TOO_LONG' });
      return;
    }
    const m = /^:(\d{2}[A-Z]?):(.*)$/.exec(raw);
    if (m) fields.push({ tag: m[1]!, value: m[2]!, extra: [], line });
    else if (raw.trim() === '-' || raw.trim() === '' || raw.startsWith('{'))
      fields.push({ tag: '', value: '', extra: [], line });
    else if (fields.length && fields[fields.length - 1]!.tag !== '')
      fields[fields.length - 1]!.extra.push(raw);
  });

  const entries: StatementEntry[] = [];
  const statements: StatementInfo[] = [];
  const balances: BalanceCheck[] = [];
  let open: OpenStatement | null = null;
  // Typed by a cast: assigned in `flush` too, so an initialiser would narrow it to `null` in the loop.
  let pending = null as PendingEntry | null;

  const flush = () => {
    if (!pending) return;
    entries.push(pending.entry);
    pending = null;
  };
  const close = () => {
    flush();
    if (!open) return;
    const st = open;
    const index = statements.length;
    const info = st.info;
    info.entryCount = entries.length - info.firstEntry;
    info.currency = st.opening?.currency ?? st.closing?.currency ?? null;
    const span = bookingSpan(entries, info.firstEntry);
    info.periodStart = st.opening?.date ?? span.first ?? st.closing?.date ?? null;
    info.periodEnd = st.closing?.date ?? span.last ?? info.periodStart;
    // A bank's closing date before its opening date (seen in a real sample): the period is then every
    // date the statement states, so the preview can ask about it and the import can store it.
    if (info.periodStart && info.periodEnd && info.periodEnd < info.periodStart) {
      const dates = [info.periodStart, info.periodEnd, span.first, span.last]
        .filter((d) => d !== null)
        .sort();
      info.periodStart = dates[0]!;
      info.periodEnd = dates.at(-1)!;
    }
    if (!st.closing) {
      errors.push({ line: st.lastLine, code: 'MISSING_CLOSING_BALANCE', statement: index });
    } else if (st.opening) {
      const consistent = st.opening.cents + st.sum === st.closing.cents;
      info.balance = { opening: st.opening.cents, closing: st.closing.cents, consistent };
      balances.push(info.balance);
      if (!consistent) errors.push({ line: st.closingLine, code: 'BALANCE_MISMATCH', statement: index });
    }
    statements.push(info);
    open = null;
  };
  const start = (line: number): OpenStatement => {
    close();
    open = {
      info: {
        accountIban: null,
        currency: null,
        statementId: null,
        sequence: null,
        periodStart: null,
        periodEnd: null,
        balance: null,
        firstEntry: entries.length,
        entryCount: 0,
      },
      opening: null,
      closing: null,
      closingLine: line,
      sum: 0,
      lastLine: line,
    };
    return open;
  };
  const statementFor = (f: Field): OpenStatement => {
    const restarts = f.tag === '20' || ((f.tag === '25' || f.tag.startsWith('60')) && open?.closing);
    const st = restarts || !open ? start(f.line) : open;
    st.lastLine = f.line + f.extra.length;
    return st;
  };
  const text = (f: Field) => [f.value, ...f.extra].join('').trim();

  for (const f of fields) {
    if (f.tag === '') {
      flush();
      continue;
    }
    const st = statementFor(f);
    if (f.tag === '86' && pending) {
      const d = parseField86([f.value, ...f.extra].join(''));
      const e = pending.entry;
      e.description = [e.description, d.description].filter(Boolean).join(' ');
      e.counterpartyName = d.counterpartyName;
      e.counterpartyIban = d.counterpartyIban;
      e.kind = kindOf(pending.mark, pending.typeCode, { ...d, description: e.description });
      // A return's customer reference is the returned payment's EndToEndId when `:86:` names none.
      e.endToEndId = d.endToEndId ?? (e.kind === 'return' ? referenceId(pending.customerRef) : null);
      e.returnReason = d.returnReason ?? (e.kind === 'return' ? reasonCodeIn(e.description) : null);
      flush();
      continue;
    }
    flush();
    if (f.tag === '20') st.info.statementId = clean(text(f));
    else if (f.tag === '28C' || f.tag === '28') st.info.sequence = clean(text(f));
    else if (f.tag === '25') {
      const account = text(f);
      st.info.accountIban = account === '' ? null : (ibanIn(account) ?? account);
    } else if (f.tag === '60F' || f.tag === '60M') {
      const b = balanceField(f.value);
      if (!b) errors.push({ line: f.line, code: 'INVALID_BALANCE', statement: statements.length });
      st.opening = b;
    } else if (f.tag === '62F' || f.tag === '62M') {
      const b = balanceField(f.value);
      if (!b) errors.push({ line: f.line, code: 'INVALID_BALANCE', statement: statements.length });
      st.closing = b;
      st.closingLine = f.line;
    } else if (f.tag === '61') {
      const m = LINE_61.exec(f.value.trim());
      const valueDate = m ? yymmdd(m[1]!) : null;
      const amount = m ? mtAmount(m[5]!) : null;
      if (!m || !valueDate || amount == null) {
        errors.push({
          line: f.line,
          code: !m ? 'INVALID_TRANSACTION_LINE' : !valueDate ? 'INVALID_DATE' : 'INVALID_AMOUNT',
          statement: statements.length,
        });
        continue;
      }
      const signedAmount = m[3] === 'D' || m[3] === 'RC' ? -amount : amount;
      st.sum += signedAmount;
      const customerRef = clean(m[7]);
      const supplementary = f.extra.join(' ').trim();
      const kind = kindOf(m[3]!, m[6]!, { ...NO_DETAILS, description: supplementary });
      pending = {
        mark: m[3]!,
        typeCode: m[6]!,
        customerRef,
        entry: {
          bookingDate: entryDate(valueDate, m[2]),
          valueDate,
          amountCents: signedAmount,
          currency: st.opening?.currency ?? 'EUR',
          description: supplementary,
          counterpartyName: null,
          counterpartyIban: null,
          bankReference: clean(m[8]) ?? (customerRef === 'NONREF' ? null : customerRef),
          endToEndId: kind === 'return' ? referenceId(customerRef) : null,
          batchId: null,
          kind,
          returnReason: kind === 'return' ? reasonCodeIn(supplementary) : null,
          lineNumber: f.line,
        },
      };
    }
  }
  close();
  if (entries.length === 0 && statements.length === 0 && errors.length === 0)
    errors.push({ line: 1, code: 'NO_ENTRIES' });
  errors.sort((a, b) => a.line - b.line);
  return {
    format: 'mt940',
    entries,
    statements,
    skipped: [],
    errors,
    balance: combineBalances(balances),
    accountIban: statements[0]?.accountIban ?? null,
    encoding: null,
    csv: null,
  };
}
