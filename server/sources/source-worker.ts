import { parentPort, workerData } from 'node:worker_threads';
import type { ProviderCsvMapping } from '../../domain/sources/provider-csv';
import type { SourceKind } from '../../domain/sources/source-ids';
import { readSourceUpload } from './source-reading';

/**
 * A worker thread's whole life (source-reader.ts): read one uploaded source file with the preview's
 * readers and send back its rows, or its refusal. The API thread ends it once answered.
 */
const data = workerData as { kind: SourceKind; bytes: ArrayBuffer; mapping: ProviderCsvMapping | undefined };
void readSourceUpload(data.kind, new Uint8Array(data.bytes), data.mapping).then((reading) =>
  parentPort!.postMessage(reading),
);
