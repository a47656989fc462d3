import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';

/**
 * Where an export's bytes live: the one module that knows (docs/decisions/0077), so moving them to
 * another store changes this file only. For now a file under `DATA_DIR/exports`, written as
 * `<ref>.part` and renamed when complete, so a half-written file is never served. A `ref` is made
 * here from the job's id, never from a request, and checked again before it reaches a path.
 */

const REF = /^[0-9a-f-]{36}\.(csv|xlsx)$/;

const exportsDir = (dataDir: string) => join(dataDir, 'exports');

function pathOf(dataDir: string, ref: string): string {
  if (!REF.test(ref)) throw new Error(`not an export file reference: ${JSON.stringify(ref)}`);
  return join(exportsDir(dataDir), ref);
}

/** The reference of a job's file: made from its id, so a job that died mid-write can be cleaned up. */
export const exportFileRef = (jobId: string, format: 'CSV' | 'XLSX') =>
  `${jobId}.${format === 'CSV' ? 'csv' : 'xlsx'}`;

export interface ExportFileWriter {
  readonly ref: string;
  /** Resolves when the bytes may be followed by more (back-pressure). */
  write(chunk: Uint8Array): Promise<void>;
  /** Completes the file: afterwards `ref` opens it, and its size is known. */
  finish(): Promise<{ ref: string; sizeBytes: number }>;
  /** Drops what was written (cancelled or failed job). */
  abort(): Promise<void>;
}

export async function createExportFile(
  dataDir: string,
  jobId: string,
  format: 'CSV' | 'XLSX',
): Promise<ExportFileWriter> {
  const ref = exportFileRef(jobId, format);
  const final = pathOf(dataDir, ref);
  const partial = `${final}.part`;
  await mkdir(exportsDir(dataDir), { recursive: true });
  const out = createWriteStream(partial);
  let failure: Error | null = null;
  out.on('error', (error) => {
    failure = error;
  });
  const closed = () => (out.closed ? Promise.resolve() : once(out, 'close').then(() => undefined));
  return {
    ref,
    async write(chunk) {
      if (failure) throw failure;
      if (!out.write(chunk)) await drainedOrFailed(out);
      if (failure) throw failure;
    },
    async finish() {
      out.end();
      await closed();
      if (failure) throw failure;
      await rename(partial, final);
      return { ref, sizeBytes: (await stat(final)).size };
    },
    async abort() {
      out.destroy();
      await closed();
      await rm(partial, { force: true });
    },
  };
}

/** Resolves on `drain` or `error`, whichever comes first, leaving no listener behind. */
function drainedOrFailed(out: NodeJS.EventEmitter): Promise<void> {
  return new Promise((resolve) => {
    const settle = () => {
      out.off('drain', settle);
      out.off('error', settle);
      resolve();
    };
    out.on('drain', settle);
    out.on('error', settle);
  });
}

/** The bytes of a finished export, or null when they are gone. */
export async function openExportFile(
  dataDir: string,
  ref: string,
): Promise<{ stream: ReadableStream<Uint8Array>; sizeBytes: number } | null> {
  const path = pathOf(dataDir, ref);
  const size = await stat(path).then(
    (s) => s.size,
    () => null,
  );
  if (size === null) return null;
  return { stream: Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>, sizeBytes: size };
}

/** Removes an export's bytes (expired job), and what a job that died mid-write left behind. */
export async function deleteExportFile(dataDir: string, ref: string): Promise<void> {
  const path = pathOf(dataDir, ref);
  await rm(path, { force: true });
  await rm(`${path}.part`, { force: true });
}
