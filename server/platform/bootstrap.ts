import { join } from 'node:path';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { migrate } from '../db/migrate';
import { hasSeedData, type SeedSummary, seedDatabase } from '../seed/seed';

/** Migrates, then seeds the demo dataset into an empty database; a database in use is never seeded. */
export async function prepareDatabase(
  db: Database,
  config: Config,
  seedUsers: number,
): Promise<SeedSummary | null> {
  await migrate(db);
  if (await hasSeedData(db)) return null;
  return seedDatabase(db, {
    users: seedUsers,
    adminEmail: config.adminEmail,
    adminPassword: config.adminPassword,
    demoPassword: config.demoPassword,
    filesDir: join(config.dataDir, 'files'),
  });
}
