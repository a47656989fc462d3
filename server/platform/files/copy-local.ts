import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Queryable } from '../../db/client';
import type { LocalFileStorage } from './local-storage';
import type { FileStorage } from './storage';

export interface CopyStep {
  /** 1-based position among the files found. */
  position: number;
  total: number;
  sha256: string;
  sizeBytes: number;
  outcome: 'copied' | 'present' | 'mismatch';
}

export interface CopySummary {
  total: number;
  copied: number;
  present: number;
  copiedBytes: number;
  /** Files whose bytes no longer hash to their name (damaged on disk): reported, never trusted. */
  mismatched: string[];
  /** stored_files rows whose content the target still lacks after the copy. */
  rowsWithoutContent: number;
}

const SHA_DIR = /^[0-9a-f]{2}$/;
const SHA_NAME = /^[0-9a-f]{64}$/;

/** Every content file of a local store (`ab/ab12…`), sorted; parts being written are not content. */
async function listContents(filesDir: string): Promise<string[]> {
  const folders = (await readdir(filesDir).catch(() => [] as string[])).filter((name) => SHA_DIR.test(name));
  const found: string[] = [];
  for (const folder of folders.sort())
    for (const name of (await readdir(join(filesDir, folder))).sort())
      if (SHA_NAME.test(name) && name.startsWith(folder)) found.push(name);
  return found;
}

/**
 * Copies a local files folder into another storage (PostgreSQL, for an installation moving from
 * embedded to server mode). Each file is its own put, so an interrupted copy keeps what it finished;
 * content the target has already is skipped, so running it again resumes and then changes nothing.
 */
export async function copyLocalFiles(
  source: LocalFileStorage,
  target: FileStorage,
  db: Queryable,
  onStep: (step: CopyStep) => void = () => {},
): Promise<CopySummary> {
  const contents = await listContents(source.filesDir);
  const summary: CopySummary = {
    total: contents.length,
    copied: 0,
    present: 0,
    copiedBytes: 0,
    mismatched: [],
    rowsWithoutContent: 0,
  };
  for (const [index, sha256] of contents.entries()) {
    const step = { position: index + 1, total: contents.length, sha256 };
    if (await target.has(sha256)) {
      summary.present++;
      onStep({ ...step, sizeBytes: (await target.size(sha256)) ?? 0, outcome: 'present' });
      continue;
    }
    const { size } = await stat(source.pathOf(sha256));
    // No size limit here: these bytes were accepted once already (exports may exceed 40 MB).
    const stored = await target.put(createReadStream(source.pathOf(sha256)), { maxBytes: size });
    if (stored.sha256 !== sha256) {
      // Stored under what it really is (harmless, unreferenced); the named content stays missing.
      summary.mismatched.push(sha256);
      onStep({ ...step, sizeBytes: size, outcome: 'mismatch' });
      continue;
    }
    summary.copied++;
    summary.copiedBytes += stored.sizeBytes;
    onStep({ ...step, sizeBytes: stored.sizeBytes, outcome: 'copied' });
  }
  summary.rowsWithoutContent = await countRowsWithoutContent(db, target);
  return summary;
}

async function countRowsWithoutContent(db: Queryable, target: FileStorage): Promise<number> {
  const { rows } = await db.query<{ sha256: string }>('SELECT DISTINCT sha256 FROM stored_files');
  let missing = 0;
  for (const row of rows) if (!(await target.has(row.sha256))) missing++;
  return missing;
}
