import type { Config } from '../config';
import type { Database } from '../db/client';
import { migrate } from '../db/migrate';
import { AlreadySeededError, hasSeedData, type SeedSummary, seedDatabase } from '../seed/seed';
import { openFileStorage } from './files/open-storage';
import type { FileStorage } from './files/storage';

/**
 * Migrates, then seeds the demo dataset into an empty database; a database in use is never seeded, and of
 * instances starting at once on an empty one exactly one seeds it.
 */
export async function prepareDatabase(
  db: Database,
  config: Config,
  seedUsers: number,
  storage: FileStorage = openFileStorage(config, db),
): Promise<SeedSummary | null> {
  await migrate(db);
  if (await hasSeedData(db)) return null;
  try {
    return await seedDatabase(db, {
      users: seedUsers,
      adminEmail: config.adminEmail,
      adminPassword: config.adminPassword,
      demoPassword: config.demoPassword,
      storage,
    });
  } catch (error) {
    // Another instance seeded it while this one was starting (seedDatabase serialises on a lock).
    if (error instanceof AlreadySeededError) return null;
    throw error;
  }
}
