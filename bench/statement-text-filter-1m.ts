// The reconciliation table's `text` filter ("the bank's text contains", decision 0161) at 1,000,000 statement
// lines, with and without migration 0058's trigram indexes (decision 0172): the first page as the console asks
// it (`GET /v2/admin/statements/lines?text=…&limit=50`), read through the product's `listLines` with the route's
// own query schema, for words no line prints, words a few lines print and words a third of the lines print.
//   npx tsx bench/statement-text-filter-1m.ts [--url postgres://…] [--template bench_lists_load] [--iterations 30]
// The kept database of bench/lists-under-load.ts is copied (CREATE DATABASE … TEMPLATE, never written itself),
// the product's migrations applied to the copy, and the copy dropped at the end.
import { execFileSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { statementLineListQuerySchema } from '../contract/reconciliation';
import { openDatabase } from '../server/db/client';
import { migrate } from '../server/db/migrate';
import { listLines } from '../server/statements/lines';
import { cpuLoopMs, percentile } from './banking-report';
import { copyOfKeptDatabase } from './kept-database';

const { values } = parseArgs({
  options: {
    url: {
      type: 'string',
      default: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55432/postgres',
    },
    template: { type: 'string', default: 'bench_lists_load' },
    iterations: { type: 'string', default: '30' },
    out: { type: 'string', default: 'bench/results/statement-text-filter-1m.md' },
  },
});
/** Words as an operator types them: none of the lines, a handful, a name's part, a third of them. */
const WORDS = ['simoes', '959795', 'clínica 79', 'manuten'];
const TRGM_INDEXES = ['statement_lines_description_trgm_idx', 'statement_lines_counterparty_trgm_idx'];

async function main() {
  const uptime = execFileSync('uptime', { encoding: 'utf8' }).trim();
  const copy = await copyOfKeptDatabase(values.url!, values.template!, 'text');
  const db = await openDatabase({ databaseUrl: copy.url });
  const rows: string[] = [];
  try {
    const migrated = performance.now();
    await migrate(db);
    const migrateMs = performance.now() - migrated;
    await db.query('VACUUM ANALYZE statement_lines');
    const lines = (await db.query<{ n: string }>('SELECT count(*)::text AS n FROM statement_lines')).rows[0]!
      .n;
    const loopMs = cpuLoopMs();
    const f = (n: number) => n.toFixed(1);
    for (const indexes of ['trigram indexes (0058)', 'no trigram index (before 0058)']) {
      if (indexes.startsWith('no')) for (const name of TRGM_INDEXES) await db.query(`DROP INDEX ${name}`);
      for (const text of WORDS) {
        const query = statementLineListQuerySchema.parse({ text, limit: '50' });
        const first = performance.now();
        const page = await listLines(db, query);
        const firstMs = performance.now() - first;
        const ms: number[] = [];
        for (let i = 0; i < Number(values.iterations); i++) {
          const started = performance.now();
          await listLines(db, query);
          ms.push(performance.now() - started);
        }
        ms.sort((a, b) => a - b);
        rows.push(
          `| ${indexes} | \`${text}\` | ${page.items.length} of ${page.total}${page.totalEstimated ? ' (estimated)' : ''} | ${f(firstMs)} | ${f(percentile(ms, 50))} | **${f(percentile(ms, 95))}** | ${f(ms.at(-1)!)} |`,
        );
      }
    }
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const section = `
## The text filter at 1M lines · ${new Date().toISOString().slice(0, 16)}Z · commit ${commit}

Command: \`npx tsx bench/statement-text-filter-1m.ts --iterations ${values.iterations}\` · load: \`${uptime}\` · CPU loop ${loopMs} ms
Copy of \`${values.template}\`: ${Number(lines).toLocaleString('en-GB')} lines; the product's migrations applied to it in ${f(migrateMs / 1000)} s (0058's two indexes built there). One client; budget: every list p95 ≤ 300 ms under 50 admins (DESIGN §9).

| indexes | text | rows / total | first (cold) ms | p50 ms | p95 ms | max ms |
|---|---|---|---|---|---|---|
${rows.join('\n')}
`;
    console.log(section);
    appendFileSync(values.out!, section);
  } finally {
    await db.close();
    await copy.drop();
  }
}

await main();
