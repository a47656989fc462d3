import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Refusal } from '../../../server/platform/refusal';
import { planUpload } from '../../../server/statements/import-plan';
import { hexKeysOf } from '../../../server/statements/known-lines';
import { columnLiterals, type LineRows } from '../../../server/statements/line-rows';
import {
  ENTRIES_PER_CHUNK,
  READ_OFF_THREAD_FROM_BYTES,
  type ReadStatementUpload,
  readAndPlan,
  readHere,
  readInWorker,
  readUpload,
  StatementSlot,
} from '../../../server/statements/statement-reader';
import { readStatementUpload } from '../../../server/statements/upload-guards';

const REAL_FILES = join(import.meta.dirname, '../../fixtures/statements/real');
/** For files that name no account: the import's chosen one. */
const CHOSEN_ACCOUNT = 'PT50000201231234567890154';

/** A quoted `;` CSV big enough to be read in a worker thread, amounts repeating. */
function bigCsv(
  lines: number,
  change: (row: string, index: number) => string = (row) => row,
  { namesAccount = true } = {},
): Uint8Array {
  const rows = [
    ...(namesAccount ? ['Conta;PT50 0002 0123 1234 5678 9015 4', ''] : []),
    'Data Movimento;Data Valor;Descrição;Montante',
  ];
  for (let i = 0; i < lines; i++)
    rows.push(
      change(
        `0${1 + (i % 9)}-05-2026;0${1 + (i % 9)}-05-2026;"TRF SEPA Clínica; consulta ${i}";-${20 + (i % 20)},50`,
        i,
      ),
    );
  return new Uint8Array(Buffer.from(`${rows.join('\r\n')}\r\n`, 'utf8'));
}

/**
 * A reading's rows, drained as the import asks for them: every seventh entry known, the new ones' ids
 * counted backwards (so each chunk's rows come sorted by their counters). The ids themselves carry random
 * bits, so each chunk's id column is checked (UUIDv7, ascending) and left out of what is compared.
 */
async function drained(read: ReadStatementUpload) {
  const { entryCount } = read.parsed;
  // Each statement's keys first, in pieces, as the import recognises them.
  const keys: string[][] = [];
  for (const statement of 'refused' in read.planning ? [] : read.planning.statements) {
    const held = read.held.keysOf(statement.number);
    expect(held.count).toBe(statement.entryCount);
    const ofStatement: string[] = [];
    for (let start = 0; start < held.count; start += 5_000)
      ofStatement.push(...hexKeysOf(await held.piece(start, start + 5_000)));
    keys.push(ofStatement);
  }
  const rows: Pick<LineRows, 'count' | 'asks'>[] = [];
  const columns: string[][] = [];
  for (let start = 0; ; start += ENTRIES_PER_CHUNK) {
    const counters = Int32Array.from(
      { length: Math.max(0, Math.min(ENTRIES_PER_CHUNK, entryCount - start)) },
      (_, k) => ((start + k) % 7 === 0 ? -1 : entryCount - start - k),
    );
    const chunk = await read.held.next({ counters, now: NOW });
    if (chunk === null) break;
    expect(counters.length).toBeGreaterThan(0);
    const [ids, ...rest] = columnLiterals(chunk).map((literal) => Buffer.from(literal).toString('utf8'));
    const idList: string[] = ids === '{}' ? [] : ids!.slice(1, -1).split(',');
    expect(idList).toHaveLength(chunk.count);
    expect(idList.every((id) => /^"[0-9a-f]{8}-[0-9a-f]{4}-7/.test(id))).toBe(true);
    expect([...idList].sort()).toEqual(idList);
    rows.push({ count: chunk.count, asks: chunk.asks });
    columns.push(rest);
  }
  return { parsed: read.parsed, planning: read.planning, keys, rows, columns };
}

const NOW = Date.UTC(2026, 10, 28);

describe('an uploaded statement read off the event loop (decisions 0122, 0144)', () => {
  it('reads a big file in a worker exactly as on the API thread: the parse, its keys and each chunk of rows', async () => {
    const bytes = bigCsv(12_000);
    expect(bytes.byteLength).toBeGreaterThan(READ_OFF_THREAD_FROM_BYTES);
    const inline = readStatementUpload(bytes, undefined);
    if ('refused' in inline) throw new Error('the file is readable');
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 1);
    const read = await drained(await readUpload(bytes, undefined, null));
    clearInterval(ticker);
    expect(read).toEqual(await drained(readHere(bytes, undefined, null)));
    const { entries, ...rest } = inline.parsed;
    expect(read.parsed).toEqual({
      ...rest,
      entryCount: 12_000,
      entriesSumCents: entries.reduce((total, entry) => total + entry.amountCents, 0),
    });
    const planned = planUpload(inline.parsed, null);
    if ('refused' in planned) throw new Error('the file names its account');
    expect(read.planning).toEqual({ statements: planned.statements.map(({ keys: _, ...plan }) => plan) });
    expect(read.keys).toEqual(planned.statements.map(({ keys }) => keys.slice(0, keys.count)));
    // Every entry but the known seventh became a row, in chunks of ENTRIES_PER_CHUNK entries.
    expect(read.rows.map((chunk) => chunk.count)).toEqual([4_285, 4_286, 1_714]);
    // The keys the worker hashed are the statement's lines' own, one each, distinct.
    expect(read.keys[0]).toHaveLength(12_000);
    expect(new Set(read.keys[0]).size).toBe(12_000);
    // The event loop kept turning while the worker read.
    expect(ticks).toBeGreaterThan(5);
  }, 60_000);

  it('leaves the upload whole: a request body (a Buffer) still holds every byte once its copy was handed to the worker', async () => {
    const bytes = Buffer.from(bigCsv(12_000));
    const before = Buffer.from(bytes);
    (await readUpload(bytes, undefined, null)).held.close();
    expect(bytes.byteLength).toBe(before.byteLength);
    expect(bytes.equals(before)).toBe(true);
  }, 60_000);

  it("refuses from the worker as on the API thread: a NUL on a big file's 9,000th line names that line", async () => {
    const bytes = bigCsv(12_000, (row, i) => (i === 9_000 - 4 ? row.replace('TRF', 'T\0RF') : row));
    const refusal = await readUpload(bytes, undefined, null).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(Refusal);
    expect(refusal).toMatchObject({
      code: 'STATEMENT_CONTROL_CHARACTERS',
      details: { extra: { line: 9_000 } },
    });
  }, 60_000);

  it.each(readdirSync(REAL_FILES).filter((name) => name !== 'SOURCES.md'))(
    'plans %s in a worker as on the API thread: the same statements, accounts and line keys',
    async (name) => {
      const bytes = new Uint8Array(readFileSync(join(REAL_FILES, name)));
      const inline = readAndPlan(bytes, undefined, CHOSEN_ACCOUNT);
      const read = await readInWorker(bytes, undefined, CHOSEN_ACCOUNT).catch((error: unknown) => error);
      if ('refused' in inline) expect(read).toMatchObject({ code: inline.refused.code });
      else
        expect(await drained(read as ReadStatementUpload)).toEqual(
          await drained(readHere(bytes, undefined, CHOSEN_ACCOUNT)),
        );
    },
    60_000,
  );

  it('a big file that names no account: keyed with the chosen one in the worker, refused as data without one', async () => {
    const withoutAccount = bigCsv(12_000, undefined, { namesAccount: false });
    expect(withoutAccount.byteLength).toBeGreaterThan(READ_OFF_THREAD_FROM_BYTES);
    const chosen = await readUpload(withoutAccount, undefined, CHOSEN_ACCOUNT);
    chosen.held.close();
    if ('refused' in chosen.planning) throw new Error('an account was chosen');
    expect(chosen.planning.statements[0]!.identity.accountIban).toBe(CHOSEN_ACCOUNT);
    const here = readHere(withoutAccount, undefined, CHOSEN_ACCOUNT);
    expect(chosen.planning).toEqual(here.planning);
    const none = await readUpload(withoutAccount, undefined, null);
    expect(none.planning).toEqual({ refused: { code: 'STATEMENT_ACCOUNT_REQUIRED' } });
    // Nothing of a refused plan is handed over: the thread has let its entries go.
    expect(await none.held.next({ counters: new Int32Array(1), now: NOW })).toBeNull();
  }, 60_000);

  it('one statement per slot: the next taker waits for the release, in arrival order', async () => {
    const slot = new StatementSlot();
    const order: string[] = [];
    const releaseFirst = await slot.take();
    const second = slot.take().then((release) => {
      order.push('second');
      return release;
    });
    const third = slot.take().then((release) => {
      order.push('third');
      release();
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual([]);
    releaseFirst();
    releaseFirst(); // idempotent: a second release frees nobody else's turn
    (await second)();
    await third;
    expect(order).toEqual(['second', 'third']);
  });
});
