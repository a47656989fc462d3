import { join } from 'node:path';
import type { Config } from './config';
import type { Database } from './db/client';
import { importDemoSources } from './demo-sources';
import { prepareDatabase } from './platform/bootstrap';
import { LocalFileStorage } from './platform/files/local-storage';
import { openFileStorage } from './platform/files/open-storage';
import { DEFAULT_DEMO_USERS } from './seed/seed';
import { createSourceImports } from './sources/source-import';
import { createStatementImports } from './statements/import';

/**
 * What `npm start` (main.ts) and `npm run dev` (dev.ts) both stand on, so the two serve the same product: the
 * stored files' backend (a stopped process's half-written parts removed), the statement and source import
 * services, the database migrated and, when it was empty, the demo seeded and its month ends' payout reports
 * and SAF-T invoices imported through the import job (decision 0159).
 */
export async function prepareServerServices(db: Database, config: Config) {
  const storage = openFileStorage(config, db);
  console.log(
    storage.kind === 'postgres'
      ? 'Stored files: in PostgreSQL (FILES_BACKEND=postgres, the default with DATABASE_URL)'
      : `Stored files: ${join(config.dataDir, 'files')}`,
  );
  if (storage instanceof LocalFileStorage) {
    const removed = await storage.removeStaleParts();
    if (removed > 0) console.log(`Removed ${removed} part file(s) a stopped process left half written.`);
  }
  const statementImports = createStatementImports({ db, storage });
  const sourceImports = createSourceImports({
    db,
    storage,
    statementImports,
    saftSchemaBeforeAcceptMaxBytes: config.saftSchemaBeforeAcceptMaxBytes,
  });
  const seeded = await prepareDatabase(db, config, DEFAULT_DEMO_USERS, storage);
  if (seeded) {
    console.log(`Seeded the demo dataset: ${seeded.users} users, ${seeded.cases} cases.`);
    // The month ends' payout reports and invoices, through the import job an operator's upload starts.
    const demo = await importDemoSources(db, sourceImports);
    console.log(`Imported the demo's payout reports and SAF-T invoices: ${demo.files} files.`);
  }
  return { storage, statementImports, sourceImports };
}
