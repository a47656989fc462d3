import { normalizeIban } from '../iban';
import { parseAmount } from '../money';
import { ibanIn } from './account';
import {
  type BalanceCheck,
  combineBalances,
  type EntryKind,
  type ParseError,
  type ParseResult,
  type StatementEntry,
  wholeFileStatement,
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

/** `C131016EUR84349,74` → signed cents and currency. */
function balanceField(v: string): { cents: number; currency: string } | null {
  const m = /^([CD])(\d{6})([A-Z]{3})(\d+,\d*)/.exec(v.trim());
  const amount = m ? mtAmount(m[4]!) : null;
  if (!m || amount == null) return null;
  return { cents: m[1] === 'D' ? -amount : amount, currency: m[3]! };
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

function kindOf(mark: string, typeCode: string, d: Details): EntryKind {
  if (
    mark.startsWith('R') ||
    d.returnReason ||
    /RETOUR|RUECK|RETURN|DEVOLU/i.test(d.description) ||
    d.code === '159'
  ) {
    return 'return';
  }
  if (/CHG|COM/.test(typeCode) || /ENTGELT|GEBUEHR|COMISS|CHARGES|\bFEE\b/i.test(d.description)) return 'fee';
  if (/TRF/.test(typeCode) || d.endToEndId) return 'transfer';
  return 'other';
}

const LINE_61 = /^(\d{6})(\d{4})?(RC|RD|C|D)([A-Z])?(\d+,\d{0,2})([NFS][A-Z0-9]{3})([^/]*)(?:\/\/(.*))?$/;

/** Tolerant MT940: bank header lines ignored, balance mismatches reported rather than fatal. */
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
  const balances: BalanceCheck[] = [];
  let accountIban: string | null = null;
  let currency = 'EUR';
  let opening: number | null = null;
  let sum = 0;
  let pending: { entry: StatementEntry; mark: string; typeCode: string } | null = null;
  const flush = () => {
    if (!pending) return;
    entries.push(pending.entry);
    pending = null;
  };

  for (const f of fields) {
    if (f.tag === '86' && pending) {
      const d = parseField86([f.value, ...f.extra].join(''));
      const e = pending.entry;
      e.description = [e.description, d.description].filter(Boolean).join(' ');
      e.counterpartyName = d.counterpartyName;
      e.counterpartyIban = d.counterpartyIban;
      e.endToEndId = d.endToEndId;
      e.returnReason = d.returnReason;
      e.kind = kindOf(pending.mark, pending.typeCode, d);
      flush();
      continue;
    }
    flush();
    if (f.tag === '25' && accountIban == null) {
      const account = [f.value, ...f.extra].join('').trim();
      accountIban = account === '' ? null : (ibanIn(account) ?? account);
    } else if (f.tag === '60F' || f.tag === '60M') {
      const b = balanceField(f.value);
      if (!b) errors.push({ line: f.line, code: 'INVALID_BALANCE' });
      opening = b?.cents ?? null;
      currency = b?.currency ?? currency;
      sum = 0;
    } else if (f.tag === '62F' || f.tag === '62M') {
      const b = balanceField(f.value);
      if (!b) errors.push({ line: f.line, code: 'INVALID_BALANCE' });
      else if (opening != null) {
        const consistent = opening + sum === b.cents;
        balances.push({ opening, closing: b.cents, consistent });
        if (!consistent) errors.push({ line: f.line, code: 'BALANCE_MISMATCH' });
      }
      opening = null;
    } else if (f.tag === '61') {
      const m = LINE_61.exec(f.value.trim());
      const valueDate = m ? yymmdd(m[1]!) : null;
      const amount = m ? mtAmount(m[5]!) : null;
      if (!m || !valueDate || amount == null) {
        errors.push({
          line: f.line,
          code: !m ? 'INVALID_LINE' : !valueDate ? 'INVALID_DATE' : 'INVALID_AMOUNT',
        });
        continue;
      }
      let bookingDate = valueDate;
      if (m[2]) {
        const month = Number(m[2].slice(0, 2));
        const vMonth = Number(valueDate.slice(5, 7));
        let year = Number(valueDate.slice(0, 4));
        if (month - vMonth > 6) year--;
        if (vMonth - month > 6) year++;
        const candidate = `${year}-${m[2].slice(0, 2)}-${m[2].slice(2)}`;
        if (yymmdd(candidate.slice(2).replace(/-/g, ''))) bookingDate = candidate;
      }
      const signedAmount = m[3] === 'D' || m[3] === 'RC' ? -amount : amount;
      sum += signedAmount;
      const customerRef = clean(m[7]);
      pending = {
        mark: m[3]!,
        typeCode: m[6]!,
        entry: {
          bookingDate,
          valueDate,
          amountCents: signedAmount,
          currency,
          description: f.extra.join(' ').trim(),
          counterpartyName: null,
          counterpartyIban: null,
          bankReference: clean(m[8]) ?? (customerRef === 'NONREF' ? null : customerRef),
          endToEndId: null,
          batchId: null,
          kind: kindOf(m[3]!, m[6]!, NO_DETAILS),
          returnReason: null,
          lineNumber: f.line,
        },
      };
    }
  }
  flush();
  if (entries.length === 0 && balances.length === 0 && errors.length === 0)
    errors.push({ line: 1, code: 'NO_ENTRIES' });
  return {
    format: 'mt940',
    entries,
    statements: wholeFileStatement(entries, accountIban, combineBalances(balances)),
    skipped: [],
    errors,
    balance: combineBalances(balances),
    accountIban,
    encoding: null,
    csv: null,
  };
}
