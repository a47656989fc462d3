import { parseArgs } from 'node:util';
import { readConfig } from '../config';
import { openDatabase } from '../db/client';
import { migrate } from '../db/migrate';
import { openFileStorage } from '../platform/files/open-storage';
import { clearData, DEFAULT_DEMO_USERS, hasSeedData, seedDatabase } from './seed';

const USAGE = 'usage: npm run seed -- [--scale USERS] [--seed N] [--reset]';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      scale: { type: 'string', default: String(DEFAULT_DEMO_USERS) },
      seed: { type: 'string' },
      reset: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const users = Number(values.scale);
  const randomSeed = values.seed === undefined ? undefined : Number(values.seed);
  if (!Number.isInteger(users) || (randomSeed !== undefined && !Number.isInteger(randomSeed))) {
    console.error(`--scale and --seed take whole numbers\n${USAGE}`);
    return 2;
  }
  const config = readConfig();
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrate(db);
    if (await hasSeedData(db)) {
      if (!values.reset) {
        console.error('The database already has data; nothing was changed. Run with --reset to replace it.');
        return 1;
      }
      await clearData(db);
      console.log('Existing data removed (--reset).');
    }
    const started = performance.now();
    const summary = await seedDatabase(db, {
      users,
      randomSeed,
      adminEmail: config.adminEmail,
      adminPassword: config.adminPassword,
      demoPassword: config.demoPassword,
      storage: openFileStorage(config, db),
    });
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `Seeded ${db.kind === 'pglite' ? `PGlite in ${config.dataDir}` : 'PostgreSQL'} in ${seconds.toFixed(1)} s:`,
    );
    for (const [key, value] of Object.entries(summary)) console.log(`  ${key.padEnd(15)} ${value}`);
    console.log(
      `Sign in as ${config.adminEmail} / ${config.adminPassword}; every other user: ${config.demoPassword}`,
    );
    return 0;
  } finally {
    await db.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
