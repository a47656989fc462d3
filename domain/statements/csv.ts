import { normalizeIban } from '../iban';
import { parseAmount, parseDebitCredit } from '../money';
import { csvRows, headLines } from './csv-rows';
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

/** Rows longer than this (all cells together) are refused, as a line of that length was before. */
function rowLength(row: string[]): number {
  let n = row.length - 1;
  for (const cell of row) n += cell.length;
  return n;
}

/**
 * Picks `;`, tab or `,`: one with which a row of `sample` (the file's first 40 lines) reads as the
 * header, if any does; among those (or all), the one splitting the most rows into the same number
 * (≥ 2) of cells. Without the header test, quoted cells holding `,` and line breaks could make `,`
 * look regular in a `;` file.
 */
export function detectDelimiter(
  sample: string,
  isHeader: (cells: string[]) => boolean = () => false,
): string {
  let best = ';';
  let bestScore = 0;
  for (const d of [';', '\t', ',']) {
    const counts = new Map<number, number>();
    let header = false;
    for (const row of csvRows(sample, d).rows) {
      const n = row.length;
      if (n > 1 && rowLength(row) <= MAX_LINE) {
        counts.set(n, (counts.get(n) ?? 0) + 1);
        header ||= isHeader(row);
      }
    }
    let score = header ? 1e9 : 0;
    for (const [cells, times] of counts) score = Math.max(score, (header ? 1e9 : 0) + times * 1000 + cells);
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
  const explicit = Object.keys(mapping).some((k) => k !== 'headerLine' && k !== 'delimiter');
  const delimiter =
    mapping.delimiter ||
    detectDelimiter(headLines(text, 40), (cells) =>
      explicit ? resolveMapping(mapping, cells) != null : guessColumns(cells) != null,
    );
  const { rows, lines, unterminated, stoppedAt } = csvRows(text, delimiter);

  let headerIndex = -1;
  let cols: Columns | null = null;
  if (mapping.headerLine != null) {
    // `headerLine` counts source lines: the header is the row that covers that line.
    if (mapping.headerLine >= 1) {
      headerIndex = rows.length;
      for (let i = 0; i < rows.length && lines[i]! <= mapping.headerLine; i++) {
        const last = lines[i + 1] ?? Number.POSITIVE_INFINITY;
        if (mapping.headerLine < last) headerIndex = i;
      }
    }
    const header = headerIndex >= 0 ? (rows[headerIndex] ?? ['']) : null;
    cols = explicit ? resolveMapping(mapping, header) : header ? guessColumns(header) : null;
  } else {
    for (let i = 0; i < Math.min(rows.length, 50) && !cols; i++) {
      if (rowLength(rows[i]!) > MAX_LINE) continue;
      const cells = rows[i]!;
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
  // Unterminated quotes after the header are errors of their own lines (rows are in line order; the
  // errors are sorted by line at the end, so they fall into place).
  const headerLine = headerIndex >= 0 && headerIndex < rows.length ? lines[headerIndex]! : 0;
  for (const line of unterminated) if (line > headerLine) errors.push({ line, code: 'UNTERMINATED_QUOTE' });
  for (let i = headerIndex + 1; i < rows.length; i++) {
    const cells = rows[i]!;
    const line = lines[i]!;
    if (rowLength(cells) > MAX_LINE) {
      errors.push({ line, code: 'LINE_TOO_LONG' });
      continue;
    }
    if (cells.length === 1 && cells[0]!.trim() === '') continue;
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
  if (stoppedAt != null) errors.push({ line: stoppedAt, code: 'TOO_MANY_QUOTE_ERRORS' });
  if (entries.length === 0) errors.push(...pendingErrors);
  if (entries.length === 0 && errors.length === 0) errors.push({ line: headerIndex + 1, code: 'NO_ENTRIES' });
  errors.sort((a, b) => a.line - b.line);
  return { format: 'csv', entries, errors, balance: null };
}
