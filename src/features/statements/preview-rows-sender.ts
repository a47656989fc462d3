import type { StatementEntry } from '../../../domain/statements/types';
import type { PreviewMessage } from './preview-protocol';

/** Rows per message: each one string the page copies at once (decision 0103). */
export const ROWS_CHUNK = 1_000;

/** Whether `sent` are the result's entries themselves, in order (what the parser streamed was final). */
function sameEntries(sent: readonly StatementEntry[], entries: readonly StatementEntry[]): boolean {
  return sent.length === entries.length && sent.every((entry, i) => entry === entries[i]);
}

/**
 * Runs `parse` and sends its rows to the page: those it streams (a camt.053's, through `onEntries`) as
 * soon as a chunk fills, the rest once the result is known. When the result's entries are not the ones
 * streamed (the end of the file changed them — cut short, say), `reset` first and then the result's
 * rows: the page always ends with exactly the result's entries, in order.
 */
export function sendRows<Result extends { entries: StatementEntry[] }>(
  parse: (onEntries: (entries: StatementEntry[]) => void) => Result,
  post: (message: PreviewMessage) => void,
): Result {
  const postRows = (entries: StatementEntry[]) =>
    post({ type: 'rows', count: entries.length, json: JSON.stringify(entries) });
  const sent: StatementEntry[] = [];
  let pending: StatementEntry[] = [];
  const result = parse((entries) => {
    for (const entry of entries) pending.push(entry);
    if (pending.length < ROWS_CHUNK) return;
    for (const entry of pending) sent.push(entry);
    postRows(pending);
    pending = [];
  });
  for (const entry of pending) sent.push(entry);
  if (!sameEntries(sent, result.entries)) {
    if (sent.length > pending.length) post({ type: 'reset' });
    for (let start = 0; start < result.entries.length; start += ROWS_CHUNK)
      postRows(result.entries.slice(start, start + ROWS_CHUNK));
  } else if (pending.length > 0) postRows(pending);
  return result;
}
