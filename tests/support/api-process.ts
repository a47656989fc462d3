// One API server as its own process (`node --import tsx tests/support/api-process.ts`), on the database
// DATABASE_URL names and DATA_DIR: what several instances behind a load balancer look like to tests.
// Prints `{"url": …}` on one line once it listens; SIGTERM stops it.
import { createApp } from '../../server/app';
import { readConfig } from '../../server/config';
import { openDatabase } from '../../server/db/client';
import { prepareSepaGeneration } from '../../server/finance/sepa-generate';
import { listen } from '../../server/http/listen';

// NODE_ENV comes from the starter: `test` (answers checked against their schemas) unless it says otherwise.
const config = readConfig(process.env);
const db = await openDatabase({ databaseUrl: config.databaseUrl });
// As server/main.ts does: the XSD validator is compiled before the server listens.
await prepareSepaGeneration();
const server = await listen(createApp({ db, config }), { host: '127.0.0.1', port: 0 });
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
process.on('SIGTERM', async () => {
  await server.close();
  await db.close();
  process.exit(0);
});
