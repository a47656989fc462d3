// A month of 100,000 paid cases matched three ways on PostgreSQL (issue 31: "matching a month of 100,000
// cases three ways ≤ 2 s", decisions 0158, 0162), through the functions the product runs:
//   payout rows → settlements      insertPayoutRows (payment intent, reference: joined at insert) +
//                                  linkSourceFile (server/sources/), as the payouts import calls them
//   invoices → settlements (+ credit notes → invoices)   insertDocuments (reference: at insert, the kept
//                                  totals' trigger) + linkSourceFile, as the SAF-T import calls them
//   bank credit → payout           matchInsertedLines + writeNewLineMatches (server/statements/matching.ts),
//                                  as the statement import calls them
// Both files' writes run inside `keepingPayoutsFigureOnce` (server/sources/payouts-kept-figure.ts), as the
// imports run them: each payout's settlements without invoice counted once, at the end (decision 0167).
// Since two of the rules run inside the inserts, a file's matching is counted as its insert + link + that
// recount less the same insert of its rows with nothing to link (their references and payment intents
// taken out; run first, in a transaction rolled back; its own recount, of nothing, timed apart). Each file is read by the product's reader (`readSourceUpload`); the
// reads and ANALYZE are timed and reported apart. The month is `month-of-cases.ts`'s; the generator's truth
// (which payment each balance transaction, invoice and bank credit belongs to) is kept beside the files and
// every link made is checked against it: wrong links and recall printed.
//   npx tsx bench/three-way-month.ts [--url postgres://…] [--cases 100000] [--out bench/results/three-way-month.md]
import { execFileSync } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { SourceKind } from '../domain/sources/source-ids';
import { readConfig } from '../server/config';
import { openDatabase, type Queryable } from '../server/db/client';
import { prepareDatabase } from '../server/platform/bootstrap';
import { PostgresFileStorage } from '../server/platform/files/postgres-storage';
import { MIN_SEED_USERS } from '../server/seed/seed';
import { linkSourceFile } from '../server/sources/links';
import { keepingPayoutsFigureOnce } from '../server/sources/payouts-kept-figure';
import { readSourceUpload, type SourceReading } from '../server/sources/source-reading';
import { insertDocuments, insertPayoutRows } from '../server/sources/source-rows';
import { LineAsks, matchInsertedLines, writeNewLineMatches } from '../server/statements/matching';
import { createPostgresDatabase } from '../tests/support/databases';
import { cpuLoopMs } from './banking-report';
import { generateMonth, MONTH, seedMonth } from './month-of-cases';

const { values } = parseArgs({
  options: {
    url: {
      type: 'string',
      default: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55432/postgres',
    },
    cases: { type: 'string', default: '100000' },
    out: { type: 'string' },
    /** Keep the database (its URL printed) for EXPLAIN; drop it by hand. */
    keep: { type: 'boolean', default: false },
  },
});
const N = Number(values.cases);

const rssMiB = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;

async function timed<T>(label: string, timings: Map<string, number>, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  timings.set(label, performance.now() - started);
  console.error(`  ${label}: ${(performance.now() - started).toFixed(0)} ms`);
  return result;
}

/** The file's row in `source_files` (as the import writes it, without the stored bytes' copy). */
async function sourceFileRow(tx: Queryable, kind: SourceKind, reading: SourceReading, adminId: string) {
  const stored = await tx.query<{ id: string }>(
    `INSERT INTO stored_files (original_name, content_type, size_bytes, sha256, storage_key)
     VALUES ($1, 'application/octet-stream', 1, md5($1) || md5($1 || '2'), 'bench/' || $1) RETURNING id`,
    [`three-way-${kind}`],
  );
  const { rows } = await tx.query<{ id: string }>(
    `INSERT INTO source_files (kind, file_id, file_name, sha256, row_count, new_rows, duplicates_skipped, total_cents,
        control_totals_checked, summary, imported_by, imported_at)
     VALUES ($1, $2, $3, md5($3) || md5($3 || '2'), $4, 0, 0, $5, $6, $7::jsonb, $8, now()) RETURNING id`,
    [
      kind,
      stored.rows[0]!.id,
      `three-way-${kind}`,
      reading.entries.rows,
      reading.entries.totalCents,
      reading.controlTotalsChecked,
      JSON.stringify(reading.summary),
      adminId,
    ],
  );
  return rows[0]!.id;
}

/** The product's insert of the file's rows, for the file `fileId` (inside `tx`). */
const insertRows = (
  tx: Queryable,
  fileId: string,
  kind: 'STRIPE_PAYOUTS' | 'SAFT_INVOICES',
  reading: SourceReading,
) =>
  kind === 'SAFT_INVOICES'
    ? insertDocuments(
        tx,
        fileId,
        reading,
        () => true,
        () => {},
      )
    : insertPayoutRows(
        tx,
        fileId,
        kind,
        reading,
        () => true,
        () => {},
      );

/** The same rows naming no payment: no rule of the inserts or of `linkSourceFile` by id finds a settlement. */
const namingNothing = (reading: SourceReading): SourceReading => ({
  ...reading,
  payoutRows: reading.payoutRows.map((row) => ({ ...row, paymentIntentId: null, caseReference: null })),
  documents: reading.documents.map((doc) => ({ ...doc, caseReference: null })),
});

/**
 * Reads `bytes` as the import does; inserts its rows naming nothing (the insert that links nothing, rolled
 * back, its dead rows vacuumed); then inserts its rows and links them, each step timed.
 */
async function importAndLink(
  db: Awaited<ReturnType<typeof openDatabase>>,
  kind: 'STRIPE_PAYOUTS' | 'SAFT_INVOICES',
  bytes: Uint8Array,
  adminId: string,
  timings: Map<string, number>,
) {
  const read = await timed(`${kind}: read`, timings, () => readSourceUpload(kind, bytes, undefined));
  if ('refused' in read) throw new Error(JSON.stringify(read.refused));
  const { reading } = read;
  const table = kind === 'SAFT_INVOICES' ? 'provider_invoices' : 'provider_payout_rows';
  const rolledBack = new Error('rolled back');
  /** The writes inside the imports' wrapper; what the wrapper adds after them timed as `recount`. */
  const keptOnce = async <T>(tx: Queryable, fileId: string, label: string, writes: () => Promise<T>) => {
    let written = 0;
    const result = await timed(`${kind}: writes and ${label}`, timings, () =>
      keepingPayoutsFigureOnce(tx, fileId, kind, async () => {
        const started = performance.now();
        const done = await writes();
        written = performance.now() - started;
        return done;
      }),
    );
    timings.set(`${kind}: ${label}`, timings.get(`${kind}: writes and ${label}`)! - written);
    return result;
  };
  await db
    .transaction(async (tx) => {
      const fileId = await sourceFileRow(tx, kind, reading, adminId);
      await keptOnce(tx, fileId, 'recount linking nothing', () =>
        timed(`${kind}: insert linking nothing`, timings, () =>
          insertRows(tx, fileId, kind, namingNothing(reading)),
        ),
      );
      throw rolledBack;
    })
    .catch((error) => {
      if (error !== rolledBack) throw error;
    });
  await db.query(`VACUUM ANALYZE ${table}`);
  return db.transaction(async (tx) => {
    const fileId = await sourceFileRow(tx, kind, reading, adminId);
    return keptOnce(tx, fileId, 'recount', async () => {
      await timed(`${kind}: insert`, timings, () => insertRows(tx, fileId, kind, reading));
      await timed(`${kind}: analyze`, timings, () => tx.query(`ANALYZE ${table}`));
      return timed(`${kind}: link`, timings, () => linkSourceFile(tx, fileId, kind));
    });
  });
}

/** Recall and wrong links of one matching: `made` is what the product linked, `truth` the generator's. */
function score(name: string, truth: Map<string, string>, made: Map<string, string>) {
  let right = 0;
  let wrong = 0;
  for (const [key, value] of made)
    if (truth.get(key) === value) right++;
    else wrong++;
  return { name, truth: truth.size, made: made.size, right, wrong, recall: right / truth.size };
}

async function main() {
  const uptimeBefore = execFileSync('uptime', { encoding: 'utf8' }).trim();
  const loopMs = cpuLoopMs();
  const database = await createPostgresDatabase(values.url!);
  const db = await openDatabase({ databaseUrl: database.url });
  const timings = new Map<string, number>();
  const scores: ReturnType<typeof score>[] = [];
  let counts = '';
  try {
    const env = { DATABASE_URL: database.url, FILES_BACKEND: 'postgres', NODE_ENV: 'production' };
    await prepareDatabase(db, readConfig(env), MIN_SEED_USERS, new PostgresFileStorage(db));
    const adminId = (await db.query<{ id: string }>(`SELECT id FROM users WHERE role = 'ADMIN' LIMIT 1`))
      .rows[0]!.id;
    const month = generateMonth(N);
    const { payments, payouts, missing, stripe, saft, rand } = month;
    await timed('seed: cases and settlements (not matching)', timings, () =>
      db.transaction((tx) => seedMonth(tx, month)),
    );
    await db.query('VACUUM ANALYZE');

    const payoutLinks = await importAndLink(db, 'STRIPE_PAYOUTS', stripe, adminId, timings);
    const invoiceLinks = await importAndLink(db, 'SAFT_INVOICES', saft, adminId, timings);

    // The bank: each payout's credit a day or two after it, its id in the text (one in ten without it: then
    // amount and date), among the month's other movements.
    const lines: { amount: number; date: string; description: string; payout: string | null }[] = [];
    for (const payout of payouts) {
      const day = new Date(
        new Date(`${payout.date}T00:00:00Z`).getTime() + (1 + Math.floor(rand() * 2)) * 86_400_000,
      );
      const named = rand() >= 0.1;
      lines.push({
        amount: payout.netCents,
        date: day.toISOString().slice(0, 10),
        description: named ? `TRF STRIPE PAYMENTS EUROPE ${payout.id}` : 'TRF STRIPE PAYMENTS EUROPE LTD',
        payout: payout.id,
      });
    }
    for (let i = 0; i < 400; i++)
      lines.push({
        amount: -(1000 + Math.floor(rand() * 200_000)),
        date: `${MONTH}-${String(1 + Math.floor(rand() * 31)).padStart(2, '0')}`,
        description: `PAGAMENTO FORNECEDOR ${i}`,
        payout: null,
      });
    const statement = await db.transaction(async (tx) => {
      const stored = await tx.query<{ id: string }>(
        `INSERT INTO stored_files (original_name, content_type, size_bytes, sha256, storage_key)
         VALUES ('extrato-2031-01.csv', 'text/csv', 1, md5('tw') || md5('tw2'), 'bench/three-way-statement') RETURNING id`,
      );
      const file = await tx.query<{ id: string }>(
        `INSERT INTO statement_files (file_id, format, sha256, account_iban, line_count, entry_count, file_name, imported_at)
         VALUES ($1, 'CSV', md5('tws') || md5('tws2'), 'PT50000201231234567890154', $2, $2, 'extrato-2031-01.csv', now())
         RETURNING id`,
        [stored.rows[0]!.id, lines.length],
      );
      const fileId = file.rows[0]!.id;
      await tx.query(
        `INSERT INTO statement_lines (statement_file_id, line_number, dedup_key, bank_amount_cents, bank_date, value_date,
                                      description, kind, status)
         SELECT $1, n, 'three-way:' || n, amount, day, day, description, 'transfer', 'UNMATCHED'
           FROM unnest($2::bigint[], $3::date[], $4::text[]) WITH ORDINALITY AS l(amount, day, description, n)`,
        [fileId, lines.map((l) => l.amount), lines.map((l) => l.date), lines.map((l) => l.description)],
      );
      return fileId;
    });
    await db.query('ANALYZE statement_lines');
    const dates = lines.map((l) => l.date).sort();
    const asked = new LineAsks();
    asked.add(lines.length, {
      firstDate: dates[0]!,
      lastDate: dates.at(-1)!,
      endToEndIds: [],
      returnedEndToEndIds: [],
      batchIds: [],
      unnamedReturns: [],
    });
    const bank = await timed('bank credits: match', timings, () =>
      db.transaction(async (tx) => {
        const changes = await matchInsertedLines(tx, statement, asked);
        return writeNewLineMatches(tx, statement, lines.length, changes, { userId: adminId, at: new Date() });
      }),
    );

    // The truth of each matching, from the generator; what the product linked, from the database.
    const txn = (prefix: string, reference: string) =>
      `${prefix}_${reference.replace(/-/g, '').slice(0, 24)}`;
    const rowTruth = new Map<string, string>();
    for (const payout of payouts)
      for (const row of payout.rows)
        if (row.kind === 'charge' || row.kind === 'refund')
          rowTruth.set(
            `${payout.id}/${txn(row.kind === 'refund' ? 'txnr' : 'txn', row.payment.reference)}`,
            row.payment.reference,
          );
    const rowsMade = await db.query<{ source_id: string; case_id: string }>(
      `SELECT r.source_id, s.case_id::text FROM provider_payout_rows r JOIN settlements s ON s.id = r.settlement_id`,
    );
    scores.push(
      score(
        'payout rows → settlements',
        rowTruth,
        new Map(rowsMade.rows.map((r) => [r.source_id, r.case_id])),
      ),
    );

    const invoiced = await db.query<{ invoice_no: string; case_id: string | null; credited: string | null }>(
      `SELECT i.invoice_no, s.case_id::text, c.invoice_no AS credited
         FROM provider_invoices i
         LEFT JOIN settlements s ON s.id = i.settlement_id
         LEFT JOIN provider_invoices c ON c.id = i.credited_invoice_id
        WHERE i.source_file_id IS NOT NULL`,
    );
    // The generator's truth of the documents: each document's block in the file names its payment.
    const xml = new TextDecoder().decode(saft);
    const docTruth = new Map<string, string>();
    const noteTruth = new Map<string, string>();
    const invoiceOf = new Map<string, string>();
    const blocks = [...xml.matchAll(/<Invoice>([\s\S]*?)<\/Invoice>/g)].map((m) => m[1]!);
    for (const block of blocks) {
      const number = /<InvoiceNo>([^<]+)<\/InvoiceNo>/.exec(block)![1]!;
      const reference = /Consulta ([0-9a-f-]{36})/.exec(block)?.[1];
      const cancelled = /<InvoiceStatus>A<\/InvoiceStatus>/.test(block);
      if (!reference || cancelled) continue;
      if (/^NC /.test(number)) noteTruth.set(number, reference);
      else {
        docTruth.set(number, reference);
        invoiceOf.set(reference, number);
      }
    }
    for (const [note, reference] of noteTruth) noteTruth.set(note, invoiceOf.get(reference) ?? '?');
    scores.push(
      score(
        'invoices → settlements',
        docTruth,
        new Map(invoiced.rows.filter((r) => r.case_id).map((r) => [r.invoice_no, r.case_id!])),
      ),
    );
    scores.push(
      score(
        'credit notes → invoices',
        noteTruth,
        new Map(invoiced.rows.filter((r) => r.credited).map((r) => [r.invoice_no, r.credited!])),
      ),
    );

    const bankMade = await db.query<{ dedup_key: string; provider_payout_id: string }>(
      `SELECT l.dedup_key, p.provider_payout_id
         FROM statement_line_matches m
         JOIN statement_lines l ON l.id = m.statement_line_id
         JOIN provider_payouts p ON p.id = m.payout_id
        WHERE l.statement_file_id = $1 AND m.state = 'MATCHED'`,
      [statement],
    );
    const bankTruth = new Map(
      lines.flatMap((l, i) => (l.payout ? [[`three-way:${i + 1}`, l.payout] as [string, string]] : [])),
    );
    scores.push(
      score(
        'bank credits → payouts',
        bankTruth,
        new Map(bankMade.rows.map((r) => [r.dedup_key, r.provider_payout_id])),
      ),
    );
    counts = `${N.toLocaleString('en-GB')} cases (${month.customers.toLocaleString('en-GB')} customers, ${payments.filter((p) => p.refunded).length} refunded), ${payouts.length} payouts of ${rowTruth.size.toLocaleString('en-GB')} rows (linked ${payoutLinks.linked.toLocaleString('en-GB')}), ${blocks.length.toLocaleString('en-GB')} SAF-T documents (${missing.size} payments never invoiced; linked ${invoiceLinks.linked.toLocaleString('en-GB')}), ${lines.length} bank lines (matched ${bank.matched}, suggested ${bank.suggested})`;
  } finally {
    await db.close();
    if (values.keep) console.error(`kept: ${database.url}`);
    else await database.drop();
  }

  const ms = (label: string) => timings.get(label) ?? Number.NaN;
  /** A file's matching: its insert, link and payouts' recount less the same insert with nothing to link. */
  const matching = (kind: SourceKind) =>
    ms(`${kind}: insert`) +
    ms(`${kind}: link`) +
    ms(`${kind}: recount`) -
    ms(`${kind}: insert linking nothing`);
  const threeWays = matching('STRIPE_PAYOUTS') + matching('SAFT_INVOICES') + ms('bank credits: match');
  const linkSteps = ms('STRIPE_PAYOUTS: link') + ms('SAFT_INVOICES: link') + ms('bank credits: match');
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  const f = (n: number) => n.toFixed(0);
  const row = (kind: SourceKind, name: string) =>
    `| ${name} | ${f(ms(`${kind}: insert`))} | ${f(ms(`${kind}: insert linking nothing`))} | ${f(ms(`${kind}: link`))} | ${f(ms(`${kind}: recount`))} (${f(ms(`${kind}: recount linking nothing`))}) | **${f(matching(kind))}** |`;
  const section = `
## ${new Date().toISOString().slice(0, 16)}Z · commit ${commit}

Command: \`npx tsx bench/three-way-month.ts --cases ${N}\` · load before: \`${uptimeBefore}\` · after: ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' / ')} · CPU loop ${loopMs} ms · peak RSS ${rssMiB().toFixed(0)} MiB

${counts}

| matching, ms | insert | the same insert linking nothing | link step | payouts' recount (linking nothing) | **insert + link + recount − insert linking nothing** |
|---|---|---|---|---|---|
${row('STRIPE_PAYOUTS', 'payout rows → settlements (`insertPayoutRows` + `linkSourceFile`)')}
${row('SAFT_INVOICES', 'invoices → settlements + credit notes → invoices (`insertDocuments` + `linkSourceFile`)')}
| bank credit → payout (\`matchInsertedLines\` + \`writeNewLineMatches\`) | – | – | ${f(ms('bank credits: match'))} | – | **${f(ms('bank credits: match'))}** |
| **three ways, total** (budget 2,000) | | | ${f(linkSteps)} (link steps alone) | | **${f(threeWays)}** |

| not matching, reported beside it | ms |
|---|---|
| Stripe report read / ANALYZE | ${f(ms('STRIPE_PAYOUTS: read'))} / ${f(ms('STRIPE_PAYOUTS: analyze'))} |
| SAF-T read (XSD included) / ANALYZE | ${f(ms('SAFT_INVOICES: read'))} / ${f(ms('SAFT_INVOICES: analyze'))} |

| links checked against the generator | truth | made | right | wrong | recall |
|---|---|---|---|---|---|
${scores.map((s) => `| ${s.name} | ${s.truth} | ${s.made} | ${s.right} | **${s.wrong}** | ${(s.recall * 100).toFixed(2)} % |`).join('\n')}
`;
  console.log(section);
  if (values.out) appendFileSync(values.out, section);
}

await main();
