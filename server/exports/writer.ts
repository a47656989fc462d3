/** An export's file being written (CSV `csv-stream.ts`, XLSX `xlsx-stream.ts`). */
export interface WriterRun {
  /** The rows written, once every byte of the file has gone through `store`. */
  readonly done: Promise<number>;
  /** Stops at the next batch (a cancelled job); `done` then rejects with WRITER_STOPPED. */
  stop(): Promise<void>;
}

/** The writer stopped: `reason` is the code stored on the job (XLSX_TOO_MANY_ROWS, WRITER_STOPPED, …). */
export class WriterFailure extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'WriterFailure';
  }
}
