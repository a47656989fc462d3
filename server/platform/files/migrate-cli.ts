import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readConfig } from '../../config';
import { openDatabase } from '../../db/client';
import { migrate } from '../../db/migrate';
import { copyLocalFiles } from './copy-local';
import { LocalFileStorage } from './local-storage';
import { PostgresFileStorage } from './postgres-storage';

const USAGE = `usage: DATABASE_URL=postgres://… npm run files:migrate -- [--from DIR]
  Copies every stored file of a local folder (default: $DATA_DIR/files) into the PostgreSQL
  database DATABASE_URL names. Safe to run again: what is there already is skipped.`;

const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { from: { type: 'string' }, help: { type: 'boolean', default: false } },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const config = readConfig();
  if (!config.databaseUrl) {
    console.error(`DATABASE_URL must name the PostgreSQL database to copy the files into.\n${USAGE}`);
    return 2;
  }
  const source = new LocalFileStorage(resolve(values.from ?? join(config.dataDir, 'files')));
  const db = await openDatabase({ databaseUrl: config.databaseUrl });
  try {
    await migrate(db);
    console.log(`Copying stored files from ${source.filesDir} into PostgreSQL…`);
    const summary = await copyLocalFiles(source, new PostgresFileStorage(db), db, (step) => {
      const label = {
        copied: 'copied',
        present: 'already there',
        mismatch: 'DAMAGED: bytes do not match the name',
      };
      console.log(
        `[${step.position}/${step.total}] ${step.sha256.slice(0, 12)}… ${megabytes(step.sizeBytes)} ${label[step.outcome]}`,
      );
    });
    console.log(
      `Done: ${summary.copied} copied (${megabytes(summary.copiedBytes)}), ${summary.present} already there, ` +
        `${summary.mismatched.length} damaged, of ${summary.total} files.`,
    );
    if (summary.rowsWithoutContent > 0)
      console.log(
        `${summary.rowsWithoutContent} stored file record(s) have no content in PostgreSQL yet (not in ${source.filesDir}?).`,
      );
    else
      console.log(
        'Every stored file record has its content in PostgreSQL: FILES_BACKEND=postgres can serve them.',
      );
    return summary.mismatched.length > 0 ? 1 : 0;
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
