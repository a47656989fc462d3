// A 40 MB file through two real server processes on one PostgreSQL (the files backend of issue 15):
// uploaded through A, downloaded whole and in a range through B, timing each and sampling the serving
// process's RSS (/proc/PID/status) as it runs. Then the storage alone, in a child process of its own,
// puts 40 MB and 160 MB, to show whether its memory grows with the size.
//   npx tsx bench/files-storage.ts [--url postgres://…] [--runs 3] [--out bench/results/files-storage.md]
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { cpus, loadavg, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { MAX_FILE_BYTES } from '../contract/limits';
import { readConfig } from '../server/config';
import { type Database, openDatabase } from '../server/db/client';
import { prepareDatabase } from '../server/platform/bootstrap';
import { PostgresFileStorage } from '../server/platform/files/postgres-storage';
import { createSession } from '../server/platform/sessions';
import { MIN_SEED_USERS } from '../server/seed/seed';
import { createPostgresDatabase } from '../tests/support/databases';
import { startArguments, startServerProcess } from '../tests/support/server-process';

const { values } = parseArgs({
  options: {
    url: {
      type: 'string',
      default: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55432/postgres',
    },
    runs: { type: 'string', default: '3' },
    out: { type: 'string' },
    /** Internal: the child that puts this many MiB into the storage at --url and prints its RSS. */
    'put-only': { type: 'string' },
  },
});
const runs = Number(values.runs);
const MiB = 1_048_576;
const PIECE = 64 * 1024;

const rssOf = (pid: number): number => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
};

/** Runs `work` while sampling the server's RSS every 10 ms; answers the time and the highest sample. */
async function measured<T>(pid: number, work: () => Promise<T>) {
  const before = rssOf(pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(pid));
  }, 10);
  const started = performance.now();
  // Stopped whatever `work` does: a sampler left running after a failure reads a process already gone.
  const result = await work().finally(() => clearInterval(sampler));
  const ms = performance.now() - started;
  peak = Math.max(peak, rssOf(pid));
  return { result, ms, before, peak, growth: peak - before };
}

/**
 * Deterministic content generated piece by piece: the bench itself never holds the file either. The first
 * piece starts as a WAV file (RIFF…WAVE), since an upload's type is sniffed from its bytes (decision 0126).
 */
function pieceAt(index: number, seed = 40_503): Buffer {
  const piece = Buffer.alloc(PIECE);
  for (let i = 0; i < PIECE; i += 4) piece.writeUInt32LE((index * 2_654_435_761 + i * seed) >>> 0, i);
  if (index === 0) piece.write('RIFF\0\0\0\0WAVE', 0, 'latin1');
  return piece;
}

async function* contentOf(size: number, seed: number): AsyncGenerator<Uint8Array> {
  for (let index = 0; index * PIECE < size; index++)
    yield pieceAt(index, seed).subarray(0, Math.min(PIECE, size - index * PIECE));
}

function upload(url: string, token: string, size: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${url}/v2/admin/files?name=bench.wav&purpose=voice`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'audio/wav', 'content-length': size },
    });
    outgoing.on('error', reject);
    outgoing.on('response', (response) => {
      let body = '';
      response.on('data', (data: Buffer) => {
        body += data.toString();
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    let index = 0;
    const write = () => {
      while (index * PIECE < size) {
        const piece = pieceAt(index++);
        const last = Math.min(PIECE, size - (index - 1) * PIECE);
        if (!outgoing.write(piece.subarray(0, last))) return void outgoing.once('drain', write);
      }
      outgoing.end();
    };
    write();
  });
}

/** Reads the answer as it streams, hashing it; never holds it whole. */
async function download(url: string, token: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}`, ...headers } });
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const part of response.body!) {
    hash.update(part);
    bytes += part.byteLength;
  }
  return { status: response.status, bytes, sha256: hash.digest('hex') };
}

const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const growthCell = (m: { before: number; peak: number; growth: number }) =>
  `${mib(m.before)} → ${mib(m.peak)} (+${mib(m.growth)})`;

/** The child of --put-only: one fresh process puts the content twice (new bytes each time). */
async function putOnly(sizeMiB: number) {
  const db = await openDatabase({ databaseUrl: values.url });
  try {
    const storage = new PostgresFileStorage(db);
    const growth: number[] = [];
    for (const seed of [7, 11]) {
      const put = await measured(process.pid, () =>
        storage.put(contentOf(sizeMiB * MiB, seed + sizeMiB), { maxBytes: Number.MAX_SAFE_INTEGER }),
      );
      growth.push(put.growth);
    }
    console.log(JSON.stringify(growth));
  } finally {
    await db.close();
  }
}

/** RSS growth of a fresh process putting `sizeMiB` into the storage, first put and second. */
function putInChild(url: string, sizeMiB: number): [number, number] {
  const out = execFileSync(
    process.execPath,
    // node's flags as `npm start` gives them (the entry swapped for this script): the server's memory.
    [...startArguments().slice(0, -1), 'bench/files-storage.ts', '--url', url, '--put-only', String(sizeMiB)],
    { encoding: 'utf8' },
  );
  return JSON.parse(out.trim().split('\n').at(-1)!) as [number, number];
}

async function main() {
  const database = await createPostgresDatabase(values.url);
  const db: Database = await openDatabase({ databaseUrl: database.url });
  const loadAtStart = loadavg();
  try {
    const env = { DATABASE_URL: database.url, FILES_BACKEND: 'postgres', NODE_ENV: 'production' };
    // The smallest seed: cases to hang a voice message on (its files go into the chunks too).
    await prepareDatabase(db, readConfig(env), MIN_SEED_USERS, new PostgresFileStorage(db));
    const { rows } = await db.query<{ id: string }>(`SELECT id FROM users WHERE role = 'ADMIN'`);
    const token = await createSession(db, rows[0]!.id, new Date());
    const a = await startServerProcess(env);
    const b = await startServerProcess(env);
    try {
      // Warm-up: the first request loads code paths and opens pooled connections.
      const warm = JSON.parse((await upload(a.url, token, MiB)).body) as { id: string };
      await download(`${b.url}/v2/admin/attachments/${warm.id}/download`, token);

      const rowsOut: string[] = [];
      const samples = {
        up: [] as number[],
        down: [] as number[],
        range: [] as number[],
        upGrowth: [] as number[],
        downGrowth: [] as number[],
      };
      for (let run = 1; run <= runs; run++) {
        // A different size per run, so the content is new each time (identical bytes are stored once).
        const size = MAX_FILE_BYTES - (run - 1) * 4096;
        const up = await measured(a.pid, () => upload(a.url, token, size));
        if (up.result.status !== 201)
          throw new Error(`upload answered ${up.result.status}: ${up.result.body}`);
        const file = JSON.parse(up.result.body) as { id: string; sha256: string; sizeBytes: number };
        const path = `${b.url}/v2/admin/attachments/${file.id}/download`;
        const down = await measured(b.pid, () => download(path, token));
        if (down.result.sha256 !== file.sha256 || down.result.bytes !== size)
          throw new Error('the download differs from the upload');
        // Ranges are served for voice messages: the file becomes one, as an audio message would be.
        const voice = await db.query<{ id: string }>(
          `INSERT INTO case_messages (case_id, sender_id, type, voice_file_id, voice_duration_ms)
           SELECT id, customer_id, 'VOICE', $1, 60000 FROM cases ORDER BY id LIMIT 1 RETURNING id`,
          [file.id],
        );
        const rangeStart = size - MiB - 17;
        const range = await measured(b.pid, () =>
          download(`${b.url}/v2/admin/case/voice/${voice.rows[0]!.id}`, token, {
            range: `bytes=${rangeStart}-${size - 1}`,
          }),
        );
        if (range.result.status !== 206 || range.result.bytes !== MiB + 17)
          throw new Error('the range was not served');
        samples.up.push(up.ms);
        samples.down.push(down.ms);
        samples.range.push(range.ms);
        samples.upGrowth.push(up.growth);
        samples.downGrowth.push(down.growth);
        rowsOut.push(
          `| ${run} | ${mib(size)} | ${(up.ms / 1000).toFixed(2)} s | ${growthCell(up)} | ${(down.ms / 1000).toFixed(2)} s | ${growthCell(down)} | ${range.ms.toFixed(0)} ms (${range.result.status}) |`,
        );
        console.log(rowsOut.at(-1));
      }
      const puts = [40, 160].map((sizeMiB) => ({ sizeMiB, growth: putInChild(database.url, sizeMiB) }));
      const load = loadavg();
      const report = `# files-storage

Command: \`npx tsx bench/files-storage.ts --runs ${runs}\`

Machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}; load average at start ${loadAtStart.map((x) => x.toFixed(1)).join(' / ')}, at the end ${load.map((x) => x.toFixed(1)).join(' / ')} (the machine is shared by several sessions: timings are inflated, the memory figures are not).

Date: ${new Date().toISOString().slice(0, 10)}

Two server processes started as \`npm start\` starts one (\`node ${startArguments().join(' ')}\`, NODE_ENV=production,
FILES_BACKEND=postgres) on one
PostgreSQL database of their own, as issue 15's two instances. Per run: a ${mib(MAX_FILE_BYTES)} file (the specification's
40 MB limit) uploaded through A with \`POST /v2/admin/files\` (Content-Length, 64 KiB writes), downloaded whole
through B (\`/v2/admin/attachments/{id}/download\`, hashed as it streams, sha256 checked) and the last 1 MiB + 17
bytes asked of B with a Range. RSS is the serving process's VmRSS sampled every 10 ms from /proc; "growth" is the
highest sample during the operation minus the value just before it. One warm-up first (1 MiB up through A, down
through B).

| run | size | upload through A | A's RSS during upload | download through B | B's RSS during download | range through B |
|---|---|---|---|---|---|---|
${rowsOut.join('\n')}

Median: upload ${(median(samples.up) / 1000).toFixed(2)} s, download ${(median(samples.down) / 1000).toFixed(2)} s, range ${median(samples.range).toFixed(0)} ms. Worst RSS growth: B streaming a download ${mib(Math.max(...samples.downGrowth))} (target ≤ ~20 MB, issue 15); A taking an upload ${mib(Math.max(...samples.upGrowth))}.

The storage alone (\`PostgresFileStorage.put\` in a fresh process of its own with \`npm start\`'s node flags, two puts of new content each, no HTTP):

| size | RSS growth, first put | RSS growth, second put |
|---|---|---|
${puts.map((p) => `| ${p.sizeMiB} MiB | +${mib(p.growth[0])} | +${mib(p.growth[1])} |`).join('\n')}
`;
      if (values.out) writeFileSync(values.out, report);
      console.log(report);
    } catch (error) {
      console.error(`A printed:\n${a.output()}\nB printed:\n${b.output()}`);
      throw error;
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  } finally {
    await db.close();
    await database.drop();
  }
}

if (values['put-only']) await putOnly(Number(values['put-only']));
else await main();
