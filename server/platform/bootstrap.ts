import type { Config } from '../config';
import type { Database } from '../db/client';
import { migrate } from '../db/migrate';
import { hasSeedData, type SeedSummary, seedDatabase } from '../seed/seed';
import { openFileStorage } from './files/open-storage';
import type { FileStorage } from './files/storage';

/** Migrates, then seeds the demo dataset into an empty database; a database in use is never seeded. */
export async function prepareDatabase(
  db: Database,
  config: Config,
  seedUsers: number,
  storage: FileStorage = openFileStorage(config, db),
): Promise<SeedSummary | null> {
  await migrate(db);
  if (await hasSeedData(db)) return null;
  return seedDatabase(db, {
    users: seedUsers,
    adminEmail: config.adminEmail,
    adminPassword: config.adminPassword,
    demoPassword: config.demoPassword,
    storage,
  });
}
