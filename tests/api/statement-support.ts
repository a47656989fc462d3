import { expect } from 'vitest';
import type { KnownLine, KnownLines, StatementImportJob } from '../../contract/statement-import';
import { parseStatement } from '../../domain/statements/detect';
import { statementLineKeys } from '../../domain/statements/line-key';
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

/** The account the tests' statements belong to when their file names none (a valid Portuguese IBAN). */
export const TEST_ACCOUNT = 'PT50000201231234567890154';

/** What an import says beside the preview: the account of a file that names none, a mismatch's note. */
export interface ImportParams {
  accountIban?: string;
  mismatchNote?: string;
}

export function importPath(
  fileName: string,
  preview: { expectedLines: number; expectedTotalCents: number },
  params: ImportParams = { accountIban: TEST_ACCOUNT },
) {
  const query = new URLSearchParams({
    fileName,
    expectedLines: String(preview.expectedLines),
    expectedTotalCents: String(preview.expectedTotalCents),
    ...params,
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
  params?: ImportParams,
): Promise<Response> {
  return fetch(`${api.url}${importPath(fileName, preview, params)}`, {
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
  params?: ImportParams,
): Promise<{ status: number; job?: StatementImportJob; code?: string }> {
  const response = await postStatement(api, bytes, fileName, headers, previewOf(bytes), params);
  const body = (await response.json()) as { job?: StatementImportJob; code?: string };
  if (response.status !== 202) return { status: response.status, code: body.code };
  return { status: 202, job: await finishedJob(api, body.job!.id) };
}

/**
 * The preview's known-lines questions for a file, one per statement, as the console asks them: the
 * statement's account (the file's, else the chosen one), period, bank identity, balances and line keys.
 */
export function knownLinesQuestions(bytes: Uint8Array, chosenAccount: string | null = TEST_ACCOUNT) {
  const parsed = parseStatement(bytes);
  return parsed.statements.map((statement) => {
    const accountIban = statement.accountIban ?? chosenAccount!;
    const entries = parsed.entries.slice(statement.firstEntry, statement.firstEntry + statement.entryCount);
    return {
      accountIban,
      periodStart: statement.periodStart!,
      periodEnd: statement.periodEnd!,
      statementId: statement.statementId,
      sequence: statement.sequence,
      openingBalanceCents: statement.balance?.opening ?? null,
      closingBalanceCents: statement.balance?.closing ?? null,
      keys: statementLineKeys(accountIban, entries),
    };
  });
}

/** Asks `known-lines` for each statement of a file; the answers in statement order. */
export async function askKnownLines(
  api: StatementApi,
  bytes: Uint8Array,
  chosenAccount: string | null = TEST_ACCOUNT,
): Promise<{ keys: string[]; known: KnownLine[] }[]> {
  const answers = [];
  for (const question of knownLinesQuestions(bytes, chosenAccount)) {
    const response = await fetch(`${api.url}/v2/admin/statements/known-lines`, {
      method: 'POST',
      headers: { ...bearer(api.token), 'content-type': 'application/json' },
      body: JSON.stringify(question),
    });
    expect(response.status).toBe(200);
    answers.push({ keys: question.keys, known: ((await response.json()) as KnownLines).known });
  }
  return answers;
}

/** One movement of a test MT940 statement. */
export interface Mt940Line {
  /** `yymmdd` */
  date: string;
  cents: number;
  /** The bank's reference (`//…`); absent: NONREF only. */
  reference?: string;
  text: string;
}

/** One MT940 statement block (`:20:` … `:62F:`): its account, id, sequence, balances and movements. */
export interface Mt940Block {
  account: string;
  statementId: string;
  sequence: string;
  opening: { date: string; cents: number };
  closing: { date: string; cents: number };
  lines: readonly Mt940Line[];
}

const mtAmount = (cents: number) =>
  `${Math.floor(Math.abs(cents) / 100)},${String(Math.abs(cents) % 100).padStart(2, '0')}`;
const mtBalance = (tag: string, { date, cents }: { date: string; cents: number }) =>
  `:${tag}:${cents < 0 ? 'D' : 'C'}${date}EUR${mtAmount(cents)}`;

/** An MT940 file of one or more statement blocks, as a bank writes them. */
export function mt940File(blocks: readonly Mt940Block[]): Uint8Array<ArrayBuffer> {
  const text = blocks
    .flatMap((block) => [
      `:20:${block.statementId}`,
      `:25:${block.account}`,
      `:28C:${block.sequence}`,
      mtBalance('60F', block.opening),
      ...block.lines.flatMap((line) => [
        `:61:${line.date}${line.date.slice(2)}${line.cents < 0 ? 'D' : 'C'}${mtAmount(line.cents)}NTRFNONREF${line.reference ? `//${line.reference}` : ''}`,
        `:86:${line.text}`,
      ]),
      mtBalance('62F', block.closing),
      '-',
    ])
    .join('\r\n');
  return new Uint8Array(Buffer.from(`${text}\r\n`, 'utf8'));
}
