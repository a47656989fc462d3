import { parentPort, workerData } from 'node:worker_threads';
import { saftSchemaErrors } from './saft-schema';

/**
 * A worker thread's whole life (saft-schema-run.ts): check one SAF-T upload against the official XSD in
 * pieces, telling the invoices checked as it goes, then the verdict. The API thread ends it once answered.
 */
const data = workerData as { bytes: ArrayBuffer };
void saftSchemaErrors(new Uint8Array(data.bytes), {
  onProgress: (invoices) => parentPort!.postMessage({ invoices }),
}).then((check) => parentPort!.postMessage({ check }));
