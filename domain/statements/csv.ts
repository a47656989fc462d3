import { normalizeIban } from '../iban';
import { type AmountErrorCode, parseAmount, parseDebitCredit } from '../money';
import { accountIn } from './account';
import { normalizeHeader, resolveColumns } from './csv-mapping';
import { csvRows, headLines, readCsvRows } from './csv-rows';
import { kindInText, reasonCodeIn } from './entry-text';
import {
  bookingSpan,
  type CsvField,
  type CsvMapping,
  type EntryKind,
  type ParseError,
  type ParseErrorCode,
  type ParseResult,
  type StatementEntry,
  type StatementInfo,
  unreadable,
} from './types';

export type { CsvField, CsvMapping };

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
  [
    'accountIban',
    ['iban da conta', 'iban conta', 'conta iban', 'numero de conta', 'n conta', 'account iban'],
  ],
];

function fieldFor(header: string): CsvField | null {
  const h = normalizeHeader(header);
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

/** Why an amount cell could not be read (money.ts's codes), as the statement's error code. */
const AMOUNT_ERRORS: Record<AmountErrorCode, ParseErrorCode> = {
  EMPTY: 'MISSING_AMOUNT',
  INVALID_AMOUNT: 'INVALID_AMOUNT',
  TOO_MANY_DECIMALS: 'TOO_MANY_DECIMALS',
  OUT_OF_RANGE: 'AMOUNT_OUT_OF_RANGE',
};

/** A CSV gives only its description: a return or fee word (entry-text.ts), else a transfer word. */
function kindFromText(description: string): EntryKind {
  const named = kindInText(description);
  if (named) return named;
  if (/\bTRF\b|TRANSF|SEPA/i.test(description)) return 'transfer';
  return 'other';
}

/**
 * A cell as a string of its own. A cell read from the file may be a slice of the whole decoded text,
 * which the engine keeps alive for as long as the slice: the header outlives the parse (the result keeps
 * it), and held the text of a 600,000-line file (~70 MiB) through its import (decision 0150). Joining
 * the characters builds a new string.
 */
const ownCopy = (cell: string): string => [...cell].join('');

/** Cells up to the last non-empty one: a header's trailing `;` names no column. */
function usedWidth(cells: readonly string[]): number {
  let n = cells.length;
  while (n > 0 && cells[n - 1]!.trim() === '') n--;
  return n;
}

type Columns = Partial<Record<CsvField, number>>;

function guessColumns(cells: string[]): Columns | null {
  const cols: Columns = {};
  cells.forEach((c, i) => {
    const f = fieldFor(c);
    if (f && cols[f] == null) cols[f] = i;
  });
  const hasAmount = cols.amount != null || cols.debit != null || cols.credit != null;
  return cols.bookingDate != null && hasAmount ? cols : null;
}

/** A value's look: digits as 9, letters as a, the rest as they are ("45.310,92" → "99.999,99"). */
const shapeOf = (value: string) => value.replace(/\p{N}/gu, '9').replace(/\p{L}/gu, 'a');

/** Columns whose every value has a fixed look: a date's whole shape, an amount's decimal end. */
const SHAPED_FIELDS: ReadonlySet<CsvField> = new Set([
  'bookingDate',
  'valueDate',
  'amount',
  'debit',
  'credit',
]);

/**
 * What the earlier movements' last cells looked like, per column: the shape all of them share (or
 * null once two differ) and the shape of their last three characters, when it holds a separator
 * (",99", ".99": an amount's decimals) and all of them share it.
 */
interface ColumnLook {
  shape: string | null;
  end: string | null;
}

function lookWith(look: ColumnLook | undefined, value: string): ColumnLook {
  const shape = shapeOf(value);
  const end = /[^9a]/.test(shape.slice(-3)) ? shape.slice(-3) : null;
  if (!look) return { shape, end };
  return { shape: look.shape === shape ? shape : null, end: look.end === end ? end : null };
}

/**
 * Whether a file whose last row is a movement ends inside one of that row's values we read: no line
 * break after it, its last cell is a mapped column, and that cell is not a closed quoted value. A cut
 * there reads as another amount, date or text (`45.310,9` for `45.310,92`); a cut in an unread column
 * (a balance, a category) changes nothing imported. A date or amount that looks exactly as every earlier
 * movement's value of its column looked (the same whole shape, or the same decimal end)
 * is complete: a cut cannot keep both. Text can end anywhere, so a text last cell stays a possible cut.
 */
function endsInsideValue(
  text: string,
  cells: readonly string[],
  cols: Columns,
  looks: ReadonlyMap<number, ColumnLook>,
): boolean {
  if (/[\r\n]$/.test(text) || text.endsWith('"')) return false;
  const last = cells.length - 1;
  const field = (Object.keys(cols) as CsvField[]).find((f) => cols[f] === last);
  if (field === undefined) return false;
  const look = looks.get(last);
  if (!SHAPED_FIELDS.has(field) || !look) return true;
  const value = cells[last]!.trim();
  const shape = shapeOf(value);
  const sameShape = look.shape !== null && shape === look.shape;
  const sameEnd = look.end !== null && shape.endsWith(look.end);
  return !(sameShape || sameEnd);
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
      explicit ? resolveColumns(mapping, cells) != null : guessColumns(cells) != null,
    );
  const entries: StatementEntry[] = [];
  const pendingErrors: ParseError[] = [];

  // Rows are read one slice at a time. Until the header is known they are kept (at most 50, or up
  // to `headerLine`); after it each row becomes an entry or an error straight away.
  const early: { cells: string[]; line: number }[] = [];
  let decided = false;
  let headerAt = 0; // source line of the header row (0: none)
  let header: string[] | null = null; // the header row's cells, else the first row's
  let c: Columns | null = null;
  let preambleIban: string | null = null; // an IBAN in a row above the header
  // Consecutive rows of one account make one statement: the account column's IBAN or NIB where the
  // row names one, else the account of the rows before it (the first run's: the first one named, else
  // the one above the header).
  const runs: { account: string | null; firstEntry: number }[] = [];
  const accountCells = new Map<string, string | null>();
  const rowAccount = (raw: string) => {
    let account = accountCells.get(raw);
    if (account === undefined) {
      account = accountIn(raw);
      if (accountCells.size < 10_000) accountCells.set(raw, account);
    }
    return account;
  };
  const preamble = (cells: string[]) => {
    for (let k = 0; k < cells.length && preambleIban == null; k++) preambleIban = accountIn(cells[k]!);
  };
  // How many cells a movement row must have: as many as the header names, else up to the last column
  // mapped. A row with fewer was cut (issue 27: `45.310,9` at the end of a file missing its balances).
  let rowWidth = 0;
  const decide = (cols: Columns | null, line: number, cells: string[] | null) => {
    decided = true;
    headerAt = line;
    c = cols;
    if (cells) header = cells;
    rowWidth = cells ? usedWidth(cells) : Math.max(0, ...Object.values(cols ?? {}).map((k) => k + 1));
  };
  // With `headerLine`: the named row (null: none) is the header, whatever it holds.
  const fromHeader = (header: string[] | null) =>
    explicit ? resolveColumns(mapping, header) : header ? guessColumns(header) : null;
  const usable = () =>
    c != null && c.bookingDate != null && (c.amount != null || c.debit != null || c.credit != null);

  // The last row read, and the last one read as a movement (a dated row): a movement that ends the file
  // without a line break may have been cut inside its last value.
  let lastLine = 0;
  let lastMovement: { line: number; cells: string[] } | null = null;
  // How each earlier movement's last cell looked, by column (endsInsideValue).
  const lastCellLooks = new Map<number, ColumnLook>();
  const row = (cells: string[], line: number) => {
    lastLine = line;
    if (!decided) {
      header ??= cells;
      if (mapping.headerLine != null) {
        // `headerLine` counts source lines: the header is the row that covers that line.
        if (mapping.headerLine < 1) decide(fromHeader(null), 0, null);
        else if (line <= mapping.headerLine) {
          for (const above of early.splice(0)) preamble(above.cells);
          early.push({ cells, line });
          return;
        } else {
          const h = early.pop();
          decide(fromHeader(h ? h.cells : ['']), h ? h.line : 0, h ? h.cells : null);
        }
      } else {
        if (rowLength(cells) <= MAX_LINE) {
          const found = explicit ? resolveColumns(mapping, cells) : guessColumns(cells);
          if (found) {
            for (const above of early) preamble(above.cells);
            decide(found, line, cells);
            return;
          }
        }
        early.push({ cells, line });
        if (early.length >= 50) decide(null, 0, null); // no header in the first 50 rows
        return;
      }
    }
    if (usable()) dataRow(cells, line);
  };
  // A statement has few distinct dates: each is read once (bounded, in case every cell differs).
  const dates = new Map<string, string | null>();
  const dateOf = (raw: string) => {
    let date = dates.get(raw);
    if (date === undefined) {
      date = parseCsvDate(raw);
      if (dates.size < 10_000) dates.set(raw, date);
    }
    return date;
  };
  const dataRow = (cells: string[], line: number) => {
    const cols = c!;
    const cell = (cells: string[], f: CsvField) => {
      const k = cols[f];
      return k == null ? '' : (cells[k] ?? '').trim();
    };
    if (rowLength(cells) > MAX_LINE) {
      errors.push({ line, code: 'LINE_TOO_LONG' });
      return;
    }
    if (cells.length === 1 && cells[0]!.trim() === '') return;
    const bookingDate = dateOf(cell(cells, 'bookingDate'));
    if (!bookingDate) {
      // Rows without a date after the last movement are the export's summary: skipped, not errors.
      if (cells.some((x) => x.trim() !== '')) pendingErrors.push({ line, code: 'INVALID_DATE' });
      return;
    }
    if (pendingErrors.length > 0) errors.push(...pendingErrors.splice(0));
    if (cells.length < rowWidth) {
      errors.push({ line, code: 'ROW_TOO_SHORT' });
      return;
    }
    if (lastMovement) {
      const k = lastMovement.cells.length - 1;
      lastCellLooks.set(k, lookWith(lastCellLooks.get(k), lastMovement.cells[k]!.trim()));
    }
    lastMovement = { line, cells };
    const amount =
      cols.amount != null
        ? parseAmount(cell(cells, 'amount'))
        : parseDebitCredit(cell(cells, 'debit'), cell(cells, 'credit'));
    if (!amount.ok) {
      errors.push({ line, code: AMOUNT_ERRORS[amount.code] });
      return;
    }
    const valueRaw = cell(cells, 'valueDate');
    const valueDate = valueRaw === '' ? null : dateOf(valueRaw);
    if (valueRaw !== '' && !valueDate) {
      errors.push({ line, code: 'INVALID_VALUE_DATE' });
      return;
    }
    const account = cols.accountIban != null ? rowAccount(cell(cells, 'accountIban')) : null;
    const run = runs[runs.length - 1];
    if (!run) runs.push({ account, firstEntry: entries.length });
    else if (run.account == null) run.account = account;
    else if (account != null && account !== run.account) runs.push({ account, firstEntry: entries.length });
    const description = cell(cells, 'description').replace(/\s+/g, ' ');
    const kind = kindFromText(description);
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
      kind,
      returnReason: kind === 'return' ? reasonCodeIn(description) : null,
      lineNumber: line,
    });
  };

  const { unterminated, stoppedAt } = readCsvRows(text, delimiter, row);
  if (!decided) {
    // Fewer rows than `headerLine`, or than 50 without a header (or an empty file).
    const headed = mapping.headerLine != null;
    const h = headed ? early.pop() : undefined;
    const named = headed && mapping.headerLine! >= 1 ? (h?.cells ?? ['']) : null;
    decide(headed ? fromHeader(named) : null, h?.line ?? 0, h?.cells ?? null);
  }
  const layout = (cols: Columns | null) => ({
    header: (header ?? []).map(ownCopy),
    delimiter,
    mapping:
      explicit || cols == null
        ? { ...mapping, delimiter, ...(cols ? { headerLine: headerAt } : {}) }
        : { ...cols, headerLine: headerAt, delimiter },
  });
  if (!usable()) {
    return { ...unreadable('csv', [{ line: 1, code: 'HEADER_NOT_FOUND' }]), csv: layout(null) };
  }
  // Unterminated quotes after the header are errors of their own lines (the errors are sorted by
  // line at the end, so they fall into place).
  for (const line of unterminated) if (line > headerAt) errors.push({ line, code: 'UNTERMINATED_QUOTE' });
  if (stoppedAt != null) errors.push({ line: stoppedAt, code: 'TOO_MANY_QUOTE_ERRORS' });
  const cut = lastMovement as { line: number; cells: string[] } | null;
  if (cut && cut.line === lastLine && endsInsideValue(text, cut.cells, c!, lastCellLooks))
    errors.push({ line: cut.line, code: 'VALUE_CUT' });
  if (entries.length === 0) errors.push(...pendingErrors);
  if (entries.length === 0 && errors.length === 0) errors.push({ line: headerAt, code: 'NO_ENTRIES' });
  errors.sort((a, b) => a.line - b.line);
  const statements = runs.map((run, k): StatementInfo => {
    const end = runs[k + 1]?.firstEntry ?? entries.length;
    const span = bookingSpan(entries, run.firstEntry, end);
    return {
      accountIban: run.account ?? preambleIban,
      currency: entries[run.firstEntry]!.currency,
      statementId: null,
      sequence: null,
      periodStart: span.first,
      periodEnd: span.last,
      balance: null,
      firstEntry: run.firstEntry,
      entryCount: end - run.firstEntry,
    };
  });
  return {
    format: 'csv',
    entries,
    statements,
    skipped: [],
    errors,
    balance: null,
    accountIban: statements[0]?.accountIban ?? preambleIban,
    encoding: null,
    csv: layout(c),
  };
}
