import { normalizeIban } from '../iban';
import { parseAmount, parseDebitCredit } from '../money';
import type { EntryKind, ParseError, ParseResult, StatementEntry } from './types';

export type CsvField =
  | 'bookingDate'
  | 'valueDate'
  | 'description'
  | 'amount'
  | 'debit'
  | 'credit'
  | 'currency'
  | 'counterpartyName'
  | 'counterpartyIban'
  | 'bankReference'
  | 'endToEndId';

/** Explicit mapping: column header names or 0-based indexes; `headerLine` is 1-based (0 = no header). */
export type CsvMapping = Partial<Record<CsvField, string | number>> & {
  headerLine?: number;
  delimiter?: string;
};

const MAX_LINE = 100_000;

const ALIASES: [CsvField, string[]][] = [
  ['valueDate', ['data valor', 'data-valor', 'dt valor', 'value date', 'data de valor']],
  [
    'bookingDate',
    [
      'data mov',
      'data movimento',
      'data lancamento',
      'data operacao',
      'data contabilistica',
      'data transacao',
      'data',
      'date',
      'booking date',
      'transaction date',
      'posting date',
      'dt mov',
    ],
  ],
  [
    'description',
    [
      'descricao',
      'descritivo',
      'description',
      'movimento',
      'detalhes',
      'details',
      'narrative',
      'observacoes',
    ],
  ],
  [
    'debit',
    ['debito', 'debitos', 'a debito', 'debit', 'debits', 'saidas', 'money out', 'paid out', 'withdrawals'],
  ],
  [
    'credit',
    ['credito', 'creditos', 'a credito', 'credit', 'credits', 'entradas', 'money in', 'paid in', 'deposits'],
  ],
  ['amount', ['valor', 'montante', 'importancia', 'amount', 'value', 'valor eur', 'montante eur']],
  ['currency', ['moeda', 'divisa', 'currency', 'ccy']],
  ['counterpartyName', ['beneficiario', 'ordenante', 'contraparte', 'counterparty', 'payee', 'nome']],
  ['counterpartyIban', ['iban', 'iban contraparte', 'counterparty iban', 'conta contraparte']],
  ['bankReference', ['referencia', 'reference', 'ref', 'n documento', 'numero documento', 'documento']],
  ['endToEndId', ['end to end id', 'endtoendid', 'end-to-end id', 'referencia end to end', 'e2e']],
];

function norm(h: string): string {
  return h
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

function fieldFor(header: string): CsvField | null {
  const h = norm(header);
  if (h === '' || h.startsWith('saldo') || h.startsWith('balance')) return null;
  for (const [field, names] of ALIASES) if (names.includes(h)) return field;
  for (const [field, names] of ALIASES)
    if (names.some((n) => n.length > 3 && h.startsWith(`${n} `))) return field;
  return null;
}

/** Splits one physical line on the delimiter, honouring double quotes. */
export function splitCsvLine(line: string, delimiter: string): string[] {
  if (!line.includes('"')) return line.split(delimiter);
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === delimiter) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

/** Picks `;`, tab or `,`: the one splitting the most of the first lines into the same number (≥ 2) of cells. */
export function detectDelimiter(lines: string[]): string {
  let best = ';';
  let bestScore = 0;
  for (const d of [';', '\t', ',']) {
    const counts = new Map<number, number>();
    for (const l of lines) {
      const n = splitCsvLine(l, d).length;
      if (n > 1) counts.set(n, (counts.get(n) ?? 0) + 1);
    }
    let score = 0;
    for (const [cells, times] of counts) score = Math.max(score, times * 1000 + cells);
    if (score > bestScore) {
      bestScore = score;
      best = d;
    }
  }
  return best;
}

function daysInMonth(y: number, m: number): number {
  return m === 2
    ? y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)
      ? 29
      : 28
    : [4, 6, 9, 11].includes(m)
      ? 30
      : 31;
}

/** `dd-mm-yyyy`, `dd/mm/yyyy`, `dd.mm.yyyy`, `dd-mm-yy`, ISO `yyyy-mm-dd` → ISO, or null. */
export function parseCsvDate(raw: string): string | null {
  const s = raw.trim().split(/[\sT]/)[0] ?? '';
  let y: number;
  let mo: number;
  let d: number;
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(s);
  if (m) [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  else {
    m = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4}|\d{2})$/.exec(s);
    if (!m) return null;
    [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (m[3]!.length === 2) y += 2000;
  }
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || y < 1900) return null;
  return `${y}-${mo < 10 ? '0' : ''}${mo}-${d < 10 ? '0' : ''}${d}`;
}

function kindFromText(description: string): EntryKind {
  if (/DEVOL|RETORN|\bRETURN|ESTORNO/i.test(description)) return 'return';
  if (/COMISS|IMPOSTO DO SELO|IMP\.? SELO|MANUTEN|\bFEE\b|CHARGE/i.test(description)) return 'fee';
  if (/\bTRF\b|TRANSF|SEPA/i.test(description)) return 'transfer';
  return 'other';
}

type Columns = Partial<Record<CsvField, number>>;

function resolveMapping(mapping: CsvMapping, header: string[] | null): Columns | null {
  const cols: Columns = {};
  for (const [key, value] of Object.entries(mapping)) {
    if (key === 'headerLine' || key === 'delimiter' || value == null) continue;
    const idx =
      typeof value === 'number' ? value : (header ?? []).findIndex((h) => norm(h) === norm(String(value)));
    if (idx < 0) return null;
    cols[key as CsvField] = idx;
  }
  return cols;
}

function guessColumns(cells: string[]): Columns | null {
  const cols: Columns = {};
  cells.forEach((c, i) => {
    const f = fieldFor(c);
    if (f && cols[f] == null) cols[f] = i;
  });
  const hasAmount = cols.amount != null || cols.debit != null || cols.credit != null;
  return cols.bookingDate != null && hasAmount ? cols : null;
}

/**
 * Portuguese bank CSV exports → normalised entries. Finds the header row below any preamble,
 * skips summary rows after the last movement, reports bad lines with their numbers; never throws.
 */
export function parseCsvStatement(text: string, mapping: CsvMapping = {}): ParseResult {
  const errors: ParseError[] = [];
  const lines = text.split(/\r\n|\n|\r/);
  const sample = lines.slice(0, 40).filter((l) => l.trim() !== '' && l.length <= MAX_LINE);
  const delimiter = mapping.delimiter ?? detectDelimiter(sample);
  const explicit = Object.keys(mapping).some((k) => k !== 'headerLine' && k !== 'delimiter');

  let headerIndex = -1;
  let cols: Columns | null = null;
  if (mapping.headerLine != null) {
    headerIndex = mapping.headerLine - 1;
    const header = headerIndex >= 0 ? splitCsvLine(lines[headerIndex] ?? '', delimiter) : null;
    cols = explicit ? resolveMapping(mapping, header) : header ? guessColumns(header) : null;
  } else {
    for (let i = 0; i < Math.min(lines.length, 50) && !cols; i++) {
      if ((lines[i]?.length ?? 0) > MAX_LINE) continue;
      const cells = splitCsvLine(lines[i] ?? '', delimiter);
      const found = explicit ? resolveMapping(mapping, cells) : guessColumns(cells);
      if (found) {
        cols = found;
        headerIndex = i;
      }
    }
  }
  if (
    !cols ||
    cols.bookingDate == null ||
    (cols.amount == null && cols.debit == null && cols.credit == null)
  ) {
    return { format: 'csv', entries: [], errors: [{ line: 1, code: 'HEADER_NOT_FOUND' }], balance: null };
  }
  const c = cols;
  const entries: StatementEntry[] = [];
  const pendingErrors: ParseError[] = [];
  const cell = (cells: string[], f: CsvField) => (c[f] == null ? '' : (cells[c[f]!] ?? '').trim());
  for (let i = headerIndex + 1; i < lines.length; i++) {
    const raw = lines[i]!;
    const line = i + 1;
    if (raw.length > MAX_LINE) {
      errors.push({ line, code: 'LINE_TOO_LONG' });
      continue;
    }
    if (raw.trim() === '') continue;
    const cells = splitCsvLine(raw, delimiter);
    const bookingDate = parseCsvDate(cell(cells, 'bookingDate'));
    if (!bookingDate) {
      // Rows without a date after the last movement are the export's summary: skipped, not errors.
      if (cells.some((x) => x.trim() !== '')) pendingErrors.push({ line, code: 'INVALID_DATE' });
      continue;
    }
    if (pendingErrors.length > 0) errors.push(...pendingErrors.splice(0));
    const amount =
      c.amount != null
        ? parseAmount(cell(cells, 'amount'))
        : parseDebitCredit(cell(cells, 'debit'), cell(cells, 'credit'));
    if (!amount.ok) {
      errors.push({ line, code: amount.code === 'EMPTY' ? 'MISSING_AMOUNT' : amount.code });
      continue;
    }
    const valueRaw = cell(cells, 'valueDate');
    const valueDate = valueRaw === '' ? null : parseCsvDate(valueRaw);
    if (valueRaw !== '' && !valueDate) {
      errors.push({ line, code: 'INVALID_VALUE_DATE' });
      continue;
    }
    const description = cell(cells, 'description').replace(/\s+/g, ' ');
    const iban = cell(cells, 'counterpartyIban');
    entries.push({
      bookingDate,
      valueDate,
      amountCents: amount.cents,
      currency: cell(cells, 'currency').toUpperCase() || 'EUR',
      description,
      counterpartyName: cell(cells, 'counterpartyName') || null,
      counterpartyIban: iban ? normalizeIban(iban) : null,
      bankReference: cell(cells, 'bankReference') || null,
      endToEndId: cell(cells, 'endToEndId') || null,
      batchId: null,
      kind: kindFromText(description),
      returnReason: null,
      lineNumber: line,
    });
  }
  if (entries.length === 0) errors.push(...pendingErrors);
  if (entries.length === 0 && errors.length === 0) errors.push({ line: headerIndex + 1, code: 'NO_ENTRIES' });
  return { format: 'csv', entries, errors, balance: null };
}
