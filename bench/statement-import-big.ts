// A 600,000-line bank statement (quoted `;` CSV, accents, twenty amounts repeating, ~40 MB) uploaded to
// a real server process (`npm start`'s node flags and loader) on PGlite and on PostgreSQL, while a
// client keeps asking `/v2/health` and the statement files list: the time to the 202 and to the job
// DONE, the server's RSS before → peak (/proc/PID/status every 20 ms, worker threads included), and the
// probes' latencies during the import (p50 / p99 / max). Issue 27 item 11, decision 0122: "imports while
// /v2/health and the lists keep answering (p99 ≤ 200 ms); RSS growth ≤ 300 MB".
// Then a second statement (later days) brings the stored lines to --list-at (1,000,000) and the files
// list is asked again, alone, LIST_PROBES times: the list keeps its counts (no recount per call).
//   npx tsx bench/statement-import-big.ts [--lines 600000] [--list-at 1000000] [--backends pglite,postgres] [--url postgres://…] [--out bench/results/statement-import-big.md]
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { StatementImportJob } from '../contract/statement-import';
import { readConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { prepareDatabase } from '../server/platform/bootstrap';
import { openFileStorage } from '../server/platform/files/open-storage';
import { createSession } from '../server/platform/sessions';
import { MIN_SEED_USERS } from '../server/seed/seed';
import { createPostgresDatabase } from '../tests/support/databases';
import { startArguments, startServerProcess } from '../tests/support/server-process';
import { cpuLoopMs, percentile } from './banking-report';

const { values } = parseArgs({
  options: {
    url: {
      type: 'string',
      default: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55432/postgres',
    },
    lines: { type: 'string', default: '600000' },
    'list-at': { type: 'string', default: '1000000' },
    backends: { type: 'string', default: 'pglite,postgres' },
    out: { type: 'string' },
  },
});
const lineCount = Number(values.lines);
const listAtLines = Number(values['list-at']);
/** The files list asked alone, one request after the other, once the database holds listAtLines lines. */
const LIST_PROBES = 40;
const MiB = 1_048_576;
/** A probe every this many ms, one at a time (a client that waits for its answer, as the console does). */
const PROBE_EVERY_MS = 50;

const AMOUNTS = Array.from({ length: 20 }, (_, i) => 2_500 + i * 250);
const euros = (cents: number) =>
  `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)},${String(Math.abs(cents) % 100).padStart(2, '0')}`;
const ptDate = (index: number, year: number) => {
  const date = new Date(Date.UTC(year, 0, 1) + (index % 360) * 86_400_000);
  return `${String(date.getUTCDate()).padStart(2, '0')}-${String(date.getUTCMonth() + 1).padStart(2, '0')}-${date.getUTCFullYear()}`;
};

/** The statement: payouts named in the reference, payments to clinics, fees; quoted cells with `;`. */
function statement(lineCount: number, year: number): { bytes: Uint8Array<ArrayBuffer>; totalCents: number } {
  const rows = [
    'Conta;PT50 0002 0123 1234 5678 9015 4',
    '',
    'Data Movimento;Data Valor;Descrição;Referência;Montante',
  ];
  let totalCents = 0;
  for (let i = 0; i < lineCount; i++) {
    const day = ptDate(i, year);
    const cents = i % 3 === 0 ? AMOUNTS[(i * 7) % 20]! : i % 3 === 1 ? -AMOUNTS[(i * 3) % 20]! : -350;
    totalCents += cents;
    // ~60 bytes a line, as the 37 MB / 620,000-line file: under the 40 MB upload limit.
    const text =
      i % 3 === 0
        ? `TRF SEPA; po_${i}";"po_${i}`
        : i % 3 === 1
          ? `TRF Clínica São João; ${i}";"`
          : `COMISSÃO MANUTENÇÃO ${i}";"`;
    rows.push(`${day};${day};"${text}";${euros(cents)}`);
  }
  return { bytes: new Uint8Array(Buffer.from(`${rows.join('\r\n')}\r\n`, 'utf8')), totalCents };
}

/** The process's resident memory; 0 once it has exited (a zombie's status has no VmRSS, then none at all). */
const rssOf = (pid: number): number => {
  const status = existsSync(`/proc/${pid}/status`) ? readFileSync(`/proc/${pid}/status`, 'utf8') : '';
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
};

/**
 * One GET on a connection of its own (node:http, no agent): the probes must not share fetch's keep-alive
 * pool with the 37 MB upload (runs sharing it ended with the upload's connection reset).
 */
function probe(url: string, headers: Record<string, string>): Promise<number | string> {
  return new Promise((resolve) => {
    const request = get(url, { headers, agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', (error) => resolve(String(error)));
  });
}

/** One GET's body on a connection of its own (node:http, no agent). */
function getText(url: string, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = get(url, { headers, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => resolve(body));
    });
    request.on('error', reject);
  });
}

/** A database with the admin and a session, and the environment a server process is started with. */
async function prepare(
  backend: string,
): Promise<{ env: Record<string, string>; token: string; drop(): Promise<void> }> {
  if (backend === 'postgres') {
    const database = await createPostgresDatabase(values.url!);
    const env = { DATABASE_URL: database.url, FILES_BACKEND: 'postgres', NODE_ENV: 'production' };
    const db = await openDatabase({ databaseUrl: database.url });
    const token = await ready(db, env);
    await db.close();
    return { env, token, drop: () => database.drop() };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'statement-import-big-'));
  const env = { DATA_DIR: dataDir, NODE_ENV: 'production' };
  const db = await openDatabase({ dataDir });
  const token = await ready(db, env);
  // PGlite is one process's database: closed here before the server opens it.
  await db.close();
  return { env, token, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
}

async function ready(db: Awaited<ReturnType<typeof openDatabase>>, env: Record<string, string>) {
  const config = readConfig(env);
  await prepareDatabase(db, config, MIN_SEED_USERS, openFileStorage(config, db));
  const { rows } = await db.query<{ id: string }>(`SELECT id FROM users WHERE role = 'ADMIN' LIMIT 1`);
  return createSession(db, rows[0]!.id, new Date());
}

async function run(backend: string, bytes: Uint8Array<ArrayBuffer>, totalCents: number): Promise<string> {
  const prepared = await prepare(backend);
  const server = await startServerProcess(prepared.env);
  const auth = { authorization: `Bearer ${prepared.token}` };
  try {
    const load = loadavg()
      .map((n) => n.toFixed(2))
      .join(' / ');
    const loopMs = cpuLoopMs();
    const before = rssOf(server.pid);
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssOf(server.pid));
    }, 20);
    const latencies = { health: [] as number[], list: [] as number[] };
    const failures: string[] = [];
    let importing = true;
    const probing = (async () => {
      for (let n = 0; importing; n++) {
        const [kind, path] =
          n % 2 === 0
            ? (['health', '/v2/health'] as const)
            : (['list', '/v2/admin/statements/files?limit=20'] as const);
        const started = performance.now();
        const status = await probe(`${server.url}${path}`, auth);
        if (status === 200) latencies[kind].push(performance.now() - started);
        else failures.push(`${path}: ${status}`);
        await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
      }
    })();
    const started = performance.now();
    const { accepted } = await importAndWait(server.url, auth, bytes, totalCents, lineCount);
    const total = performance.now() - started;
    importing = false;
    await probing;
    clearInterval(sampler);
    if (failures.length > 0) throw new Error(`probes failed: ${failures.slice(0, 5).join('; ')}`);
    const summary = (name: 'health' | 'list') => {
      const sorted = [...latencies[name]].sort((a, b) => a - b);
      return `${percentile(sorted, 50).toFixed(0)} / **${percentile(sorted, 99).toFixed(0)}** / ${sorted.at(-1)!.toFixed(0)} ms (${sorted.length})`;
    };
    // The files list at listAtLines stored lines: a second statement of later days, then the list alone.
    const rest = statement(listAtLines - lineCount, 2035);
    await importAndWait(server.url, auth, rest.bytes, rest.totalCents, listAtLines - lineCount);
    const listed: number[] = [];
    for (let n = 0; n < LIST_PROBES; n++) {
      const at = performance.now();
      const status = await probe(`${server.url}/v2/admin/statements/files?limit=20`, auth);
      if (status !== 200) throw new Error(`files list answered ${status}`);
      listed.push(performance.now() - at);
    }
    listed.sort((a, b) => a - b);
    const list = `${percentile(listed, 50).toFixed(0)} / **${percentile(listed, 99).toFixed(0)}** / ${listed.at(-1)!.toFixed(0)} ms (${listed.length})`;
    const line = `| ${backend} | ${lineCount.toLocaleString('en-GB')} | ${(bytes.byteLength / MiB).toFixed(1)} MiB | ${(accepted / 1000).toFixed(1)} s | **${(total / 1000).toFixed(1)} s** | ${(before / MiB).toFixed(0)} → ${(peak / MiB).toFixed(0)} MiB (**+${((peak - before) / MiB).toFixed(0)}**) | ${summary('health')} | ${summary('list')} | ${list} | ${load} | ${loopMs} ms |`;
    console.log(line);
    if (process.env.BENCH_SERVER_OUTPUT) console.log(server.output());
    return line;
  } catch (error) {
    // The child's last words (a fatal error on stderr) may still be in the pipe.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    console.log(server.output().slice(-3000));
    throw error;
  } finally {
    await server.stop();
    await prepared.drop();
  }
}

/** Uploads a statement and follows its job to DONE: when the 202 came (ms after the first byte). */
async function importAndWait(
  url: string,
  auth: Record<string, string>,
  bytes: Uint8Array<ArrayBuffer>,
  totalCents: number,
  lines: number,
): Promise<{ accepted: number }> {
  const started = performance.now();
  const query = new URLSearchParams({
    fileName: `extrato-${lines}.csv`,
    expectedLines: String(lines),
    expectedTotalCents: String(totalCents),
  });
  const response = await fetch(`${url}/v2/admin/statements/imports?${query}`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/octet-stream' },
    body: bytes,
  }).catch((error: unknown) => {
    throw new Error(`the upload failed after ${((performance.now() - started) / 1000).toFixed(1)} s`, {
      cause: error,
    });
  });
  if (response.status !== 202)
    throw new Error(`upload answered ${response.status}: ${await response.text()}`);
  const accepted = performance.now() - started;
  let job = ((await response.json()) as { job: StatementImportJob }).job;
  while (job.status === 'RUNNING') {
    await new Promise((resolve) => setTimeout(resolve, 200));
    // A connection of its own per poll (no agent), as the probes: a kept-alive socket that the server
    // closes after 5 s idle (Node's keepAliveTimeout) while its event loop was held resets the next
    // request sent on it (decision 0139), which would end the bench without saying anything about the import.
    job = JSON.parse(
      await getText(`${url}/v2/admin/statements/imports/${job.id}`, auth),
    ) as StatementImportJob;
  }
  if (job.status !== 'DONE') throw new Error(`import ${job.status}: ${job.errorCode}`);
  return { accepted };
}

async function main() {
  const { bytes, totalCents } = statement(lineCount, 2033);
  const rows: string[] = [];
  for (const backend of values.backends!.split(',')) rows.push(await run(backend, bytes, totalCents));
  const report = `# A 600,000-line statement imported without freezing its instance (issue 27 item 11)

Budget (issue 27, decision 0122): \`/v2/health\` and the lists keep answering during the import (p99 ≤ 200 ms);
the server's RSS grows by ≤ 300 MB.

Command: \`npx tsx bench/statement-import-big.ts --lines ${lineCount} --backends ${values.backends}\`
Server: \`node ${startArguments().join(' ')}\` (as \`npm start\`), NODE_ENV=production; PostgreSQL with
FILES_BACKEND=postgres, PGlite with its DATA_DIR (files on disk). Node ${process.version}; ${cpus().length} cores,
${(totalmem() / 1024 ** 3).toFixed(0)} GiB; the machine is shared with other sessions' tests and benches, so its load
(\`uptime\`'s 1/5/15 min) and \`cpuLoopMs\` (a fixed loop, ~300 ms on a quiet core) are recorded per run.

The statement: ${lineCount.toLocaleString('en-GB')} lines of a quoted \`;\` CSV (accents, \`;\` inside cells, twenty amounts
repeating), a third payouts named in the reference, a third payments to a clinic, a third fees; no open
counterparts in the database (the matcher runs over every line and finds none). A client asks, one request
at a time every ${PROBE_EVERY_MS} ms, \`/v2/health\` and \`GET /v2/admin/statements/files?limit=20\` in turn from the upload's
first byte to the job read back DONE; "202 after" includes sending the bytes, waiting for the instance's
statement slot and reading the file (in a worker thread). Then a second statement of later days brings the
stored lines to ${listAtLines.toLocaleString('en-GB')}, and the files list is asked ${LIST_PROBES} times alone (budget ≤ 50 ms).

| backend | lines | size | 202 after | upload → DONE | server RSS before → peak | /v2/health p50 / p99 / max (probes) | files list p50 / p99 / max (probes) | files list at ${listAtLines.toLocaleString('en-GB')} lines, alone | load (1/5/15 min) | CPU loop |
|---|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}
`;
  if (values.out) writeFileSync(values.out, report);
  else console.log(report);
}

await main();
