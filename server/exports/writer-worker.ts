// The export file writer's thread (docs/decisions/0059, 0077): rows arrive in batches from the job,
// the pure CSV/XLSX generators turn them into bytes here, and the bytes go back to the job (transferred,
// not copied), which stores them. The writer's garbage — half a gigabyte of sheet text per million
// XLSX rows — lives and dies in this thread's small capped heap, not in the API's.
import { parentPort, workerData } from 'node:worker_threads';
import { csvChunks, type ExportRow, xlsxChunks } from '../../domain/export-files';
import type { FromJob, ToJob, WriterSetup } from './writer-protocol';

const port = parentPort!;
const setup = workerData as WriterSetup;

/** Byte messages the job has not confirmed yet: the thread waits beyond this (back-pressure). */
const MAX_UNCONFIRMED = 8;

const inbox: FromJob[] = [];
let wakeReader: (() => void) | null = null;
let unconfirmed = 0;
let wakeWriter: (() => void) | null = null;

port.on('message', (message: FromJob) => {
  if (message.type === 'written') {
    unconfirmed--;
    wakeWriter?.();
    wakeWriter = null;
    return;
  }
  inbox.push(message);
  wakeReader?.();
  wakeReader = null;
});

const send = (message: ToJob, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

async function nextFromJob(): Promise<FromJob> {
  while (inbox.length === 0) await new Promise<void>((resolve) => (wakeReader = resolve));
  return inbox.shift()!;
}

/** Rows as the writers read them; one batch is always asked for ahead of the one being written. */
async function* rows(): AsyncGenerator<ExportRow> {
  let consumed = 0;
  send({ type: 'pull', consumed });
  for (;;) {
    send({ type: 'pull', consumed });
    const message = await nextFromJob();
    if (message.type === 'end') return;
    if (message.type !== 'rows') continue;
    const batch = JSON.parse(message.json) as ExportRow[];
    for (const row of batch) yield row;
    consumed += batch.length;
  }
}

async function write(): Promise<void> {
  const { columns, format, locale, sheetName } = setup;
  const chunks =
    format === 'CSV'
      ? csvChunks(columns, rows(), { locale })
      : xlsxChunks(columns, rows(), { locale, sheetName });
  for await (const chunk of chunks) {
    // A view into a larger buffer (fflate's output) is copied, so transferring it detaches nothing else.
    const own =
      chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength ? chunk : chunk.slice();
    unconfirmed++;
    send({ type: 'bytes', chunk: own }, [own.buffer as ArrayBuffer]);
    while (unconfirmed > MAX_UNCONFIRMED) await new Promise<void>((resolve) => (wakeWriter = resolve));
  }
  send({ type: 'done' });
}

write().catch((error: unknown) => {
  const code = (error as { code?: unknown }).code;
  send({
    type: 'failed',
    reason: typeof code === 'string' ? code : 'WRITER_FAILED',
    message: error instanceof Error ? error.message : String(error),
  });
});
