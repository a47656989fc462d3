/// <reference lib="webworker" />
import { parseStatement } from '../../../domain/statements/detect';
import { statementLineKeys } from '../../../domain/statements/line-key';
import type { ParseResult, StatementEntry } from '../../../domain/statements/types';
import type { PreviewStatement, StatementPreviewOutcome } from '../../../machines/statement-import';
import { headerKey } from '../../kernel/column-mappings';
import { MAX_ERRORS_SHOWN, type PreviewMessage, type PreviewRequest } from './preview-protocol';
import { sendRows } from './preview-rows-sender';

// The page's main thread never parses: a 100,000-line statement is read here and sent in chunks, each
// one string of JSON the page decodes only when it shows one of its rows (no long task, issue 12 item 2).
const KEY_CHUNK = 10_000;

/** Files that are certainly not statements, by their first bytes: PDF, ZIP (xlsx), OLE (xls), images. */
const NOT_STATEMENTS = [
  [0x25, 0x50, 0x44, 0x46],
  [0x50, 0x4b, 0x03, 0x04],
  [0xd0, 0xcf, 0x11, 0xe0],
  [0x89, 0x50, 0x4e, 0x47],
  [0xff, 0xd8, 0xff],
  [0x47, 0x49, 0x46, 0x38],
];

function notAStatement(bytes: Uint8Array): boolean {
  return NOT_STATEMENTS.some((magic) => magic.every((byte, i) => bytes[i] === byte));
}

function parse(
  { bytes, mapping, remembered }: PreviewRequest,
  onEntries: (entries: StatementEntry[]) => void,
): { result: ParseResult; guessed: boolean } {
  const data = new Uint8Array(bytes);
  if (mapping) return { result: parseStatement(data, { mapping }), guessed: false };
  const first = parseStatement(data, { onEntries });
  const known = first.csv ? remembered[headerKey(first.csv.header)] : undefined;
  if (!first.csv) return { result: first, guessed: false };
  if (!known) return { result: first, guessed: true };
  return { result: parseStatement(data, { mapping: known }), guessed: false };
}

/** The parser's statements with the sum of each one's entries. */
function previewStatements(result: ParseResult): PreviewStatement[] {
  return result.statements.map((statement) => {
    let totalCents = 0;
    for (let i = statement.firstEntry; i < statement.firstEntry + statement.entryCount; i++)
      totalCents += result.entries[i]!.amountCents;
    return { ...statement, totalCents };
  });
}

self.onmessage = (event: MessageEvent<PreviewRequest>) => {
  const post = (message: PreviewMessage) => self.postMessage(message);
  const bytes = new Uint8Array(event.data.bytes);
  if (notAStatement(bytes)) {
    post({
      type: 'done',
      outcome: {
        format: 'csv',
        lineCount: 0,
        totalCents: 0,
        problem: 'wrongFormat',
        keys: [],
        csv: null,
        statements: [],
      },
      details: {
        accountIban: null,
        encoding: null,
        balance: null,
        errors: [],
        errorCount: 0,
        skipped: [],
        skippedCount: 0,
        delimiter: null,
      },
    });
    return;
  }
  // The rows first (what the admin looks at), then their keys (what the server is asked about). A
  // camt.053's rows are sent while the rest of the file is still being read (decision 0103).
  let guessed = false;
  const result = sendRows((onEntries) => {
    const read = parse(event.data, onEntries);
    guessed = read.guessed;
    return read.result;
  }, post);
  const statements = previewStatements(result);
  // Each statement's keys with its own account (or the one the admin gave): two accounts' equal fees differ.
  for (const statement of statements) {
    const entries = result.entries.slice(statement.firstEntry, statement.firstEntry + statement.entryCount);
    const keys = statementLineKeys(statement.accountIban ?? event.data.accountIban ?? '', entries);
    for (let start = 0; start < keys.length; start += KEY_CHUNK)
      post({ type: 'keys', keys: keys.slice(start, start + KEY_CHUNK) });
  }
  let totalCents = 0;
  for (const entry of result.entries) totalCents += entry.amountCents;
  const outcome: StatementPreviewOutcome = {
    format: result.format,
    lineCount: result.entries.length,
    totalCents,
    problem: result.entries.length === 0 ? 'unreadable' : null,
    // The page assembles the keys from the chunks: sent once, not twice.
    keys: [],
    csv: result.csv ? { header: result.csv.header, mapping: result.csv.mapping, guessed } : null,
    statements,
  };
  post({
    type: 'done',
    outcome,
    details: {
      accountIban: result.accountIban,
      encoding: result.encoding,
      balance: result.balance,
      errors: result.errors.slice(0, MAX_ERRORS_SHOWN),
      errorCount: result.errors.length,
      skipped: result.skipped.slice(0, MAX_ERRORS_SHOWN),
      skippedCount: result.skipped.length,
      delimiter: result.csv?.delimiter ?? null,
    },
  });
};
