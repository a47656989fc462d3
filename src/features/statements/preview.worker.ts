/// <reference lib="webworker" />
import { parseStatement } from '../../../domain/statements/detect';
import { statementLineKeys } from '../../../domain/statements/line-key';
import type { ParseResult, StatementEntry } from '../../../domain/statements/types';
import type { StatementPreviewOutcome } from '../../../machines/statement-import';
import { headerKey, MAX_ERRORS_SHOWN, type PreviewMessage, type PreviewRequest } from './preview-protocol';

// The page's main thread never parses: a 100,000-line statement is read here and sent in chunks, each
// one string of JSON the page decodes only when it shows one of its rows (no long task, issue 12 item 2).
const CHUNK = 1_000;
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

/** Whether `sent` are the result's entries themselves, in order (what the parser streamed was final). */
function sameEntries(sent: readonly StatementEntry[], entries: readonly StatementEntry[]): boolean {
  return sent.length === entries.length && sent.every((entry, i) => entry === entries[i]);
}

self.onmessage = (event: MessageEvent<PreviewRequest>) => {
  const post = (message: PreviewMessage) => self.postMessage(message);
  // One string per chunk: the page copies it in a blink and reads only the rows it shows (decision 0103).
  const postRows = (entries: StatementEntry[]) =>
    post({ type: 'rows', count: entries.length, json: JSON.stringify(entries) });
  const bytes = new Uint8Array(event.data.bytes);
  if (notAStatement(bytes)) {
    post({
      type: 'done',
      outcome: { format: 'csv', lineCount: 0, totalCents: 0, problem: 'wrongFormat', keys: [], csv: null },
      details: {
        accountIban: null,
        encoding: null,
        balance: null,
        errors: [],
        errorCount: 0,
        delimiter: null,
      },
    });
    return;
  }
  // The rows first (what the admin looks at), then their keys (what the server is asked about). A
  // camt.053's rows are sent while the rest of the file is still being read (decision 0103).
  const sent: StatementEntry[] = [];
  let pending: StatementEntry[] = [];
  const { result, guessed } = parse(event.data, (entries) => {
    for (const entry of entries) pending.push(entry);
    if (pending.length < CHUNK) return;
    for (const entry of pending) sent.push(entry);
    postRows(pending);
    pending = [];
  });
  for (const entry of pending) sent.push(entry);
  if (!sameEntries(sent, result.entries)) {
    // The end of the file changed what its beginning said (cut short, say): the page starts again.
    if (sent.length > 0) post({ type: 'reset' });
    for (let start = 0; start < result.entries.length; start += CHUNK)
      postRows(result.entries.slice(start, start + CHUNK));
  } else if (pending.length > 0) postRows(pending);
  const keys = statementLineKeys(result.accountIban ?? '', result.entries);
  for (let start = 0; start < keys.length; start += KEY_CHUNK)
    post({ type: 'keys', keys: keys.slice(start, start + KEY_CHUNK) });
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
      delimiter: result.csv?.delimiter ?? null,
    },
  });
};
