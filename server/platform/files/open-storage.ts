import { join } from 'node:path';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { LocalFileStorage } from './local-storage';
import { PostgresFileStorage } from './postgres-storage';
import type { FileStorage } from './storage';

/** The backend `FILES_BACKEND` (or its default, see server/config.ts) names. */
export function openFileStorage(config: Pick<Config, 'filesBackend' | 'dataDir'>, db: Database): FileStorage {
  return config.filesBackend === 'postgres'
    ? new PostgresFileStorage(db)
    : new LocalFileStorage(join(config.dataDir, 'files'));
}
