import { expect } from 'vitest';
import type { StatementImportJob } from '../../contract/statement-import';
import { parseStatement } from '../../domain/statements/detect';
import { bearer } from './harness';

/** One movement of a test statement, as a Portuguese bank's CSV export writes it. */
export interface CsvLine {
  /** `dd-mm-yyyy` */
  date: string;
  description: string;
  /** Signed cents: debits negative. */
  cents: number;
  counterparty?: string;
}

const euros = (cents: number) => {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
};

/** A quoted, `;`-separated CSV with a preamble, as the banks' exports look (accents, commas in cells). */
export function statementCsv(lines: readonly CsvLine[]): Uint8Array<ArrayBuffer> {
  const rows = lines.map(
    (line) =>
      `${line.date};${line.date};"${line.description.replace(/"/g, '""')}";"${line.counterparty ?? ''}";${euros(line.cents)}`,
  );
  const text = [
    'Conta;PT50 0002 0123 1234 5678 9015 4',
    '',
    'Data Movimento;Data Valor;Descrição;Beneficiário;Montante',
    ...rows,
    '',
  ].join('\r\n');
  return new Uint8Array(Buffer.from(text, 'utf8'));
}

/** What the console's preview sends beside the bytes: the line count and total it saw. */
export function previewOf(bytes: Uint8Array): { expectedLines: number; expectedTotalCents: number } {
  const { entries } = parseStatement(bytes);
  return {
    expectedLines: entries.length,
    expectedTotalCents: entries.reduce((sum, entry) => sum + entry.amountCents, 0),
  };
}

export function importPath(fileName: string, preview: { expectedLines: number; expectedTotalCents: number }) {
  const query = new URLSearchParams({
    fileName,
    expectedLines: String(preview.expectedLines),
    expectedTotalCents: String(preview.expectedTotalCents),
  });
  return `/v2/admin/statements/imports?${query}`;
}

export interface StatementApi {
  url: string;
  token: string;
}

export async function postStatement(
  api: StatementApi,
  bytes: Uint8Array<ArrayBuffer>,
  fileName: string,
  headers: Record<string, string> = {},
  preview = previewOf(bytes),
): Promise<Response> {
  return fetch(`${api.url}${importPath(fileName, preview)}`, {
    method: 'POST',
    headers: { ...bearer(api.token), 'content-type': 'application/octet-stream', ...headers },
    body: bytes,
  });
}

/** Follows a job the way the console does, until it is no longer RUNNING. */
export async function finishedJob(api: StatementApi, id: string): Promise<StatementImportJob> {
  for (let attempt = 0; attempt < 1_200; attempt++) {
    const response = await fetch(`${api.url}/v2/admin/statements/imports/${id}`, {
      headers: bearer(api.token),
    });
    expect(response.status).toBe(200);
    const job = (await response.json()) as StatementImportJob;
    if (job.status !== 'RUNNING') return job;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`statement import ${id} never finished`);
}

/** Uploads and waits: the finished job, or the refusal's status and code. */
export async function importStatement(
  api: StatementApi,
  bytes: Uint8Array<ArrayBuffer>,
  fileName: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; job?: StatementImportJob; code?: string }> {
  const response = await postStatement(api, bytes, fileName, headers);
  const body = (await response.json()) as { job?: StatementImportJob; code?: string };
  if (response.status !== 202) return { status: response.status, code: body.code };
  return { status: 202, job: await finishedJob(api, body.job!.id) };
}
