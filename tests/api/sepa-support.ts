import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { createApp } from '../../server/app';
import { readConfig } from '../../server/config';
import type { Database } from '../../server/db/client';
import { listen } from '../../server/http/listen';
import { portugueseIban } from '../../server/seed/portugal';
import { Rng } from '../../server/seed/random';
import type { TestDatabaseKind } from '../support/databases';
import { bearer, type Clock, fetchOnce, insertUser, issueToken } from './harness';

/** Today in these tests: Thursday 2026-05-07 in Lisbon; the next TARGET2 business day is the 8th. */
export const SEPA_NOW = new Date('2026-05-07T09:00:00Z');
export const MONTH = '2026-04';
export const PAIN001_XSD = '/work/shared/fixtures/banking/xsd/pain.001.001.03.xsd';

export interface SepaWorld {
  db: Database;
  url: string;
  dataDir: string;
  adminId: string;
  customerId: string;
  clock: Clock;
  call(
    method: string,
    path: string,
    init?: { body?: unknown; headers?: Record<string, string> },
  ): Promise<Response>;
  stop(): Promise<void>;
}

/** The API on a fresh database with one admin and one customer; doctors and settlements come from each test. */
export async function startSepaWorld(kind: TestDatabaseKind): Promise<SepaWorld> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sepa-api-'));
  const db = await kind.open();
  const adminId = await insertUser(db, { email: 'admin@demo.pt', admin: true });
  const customerId = await insertUser(db, { email: 'customer@demo.pt', role: 'CUSTOMER' });
  const token = await issueToken(db, adminId);
  const clock: Clock = { current: SEPA_NOW };
  const app = createApp({
    db,
    config: readConfig({ NODE_ENV: 'test', DATA_DIR: dataDir }),
    clock: () => clock.current ?? new Date(),
  });
  const server = await listen(app, { host: '127.0.0.1', port: 0 });
  return {
    db,
    url: server.url,
    dataDir,
    adminId,
    customerId,
    clock,
    call: (method, path, init = {}) =>
      fetchOnce(`${server.url}${path}`, {
        method,
        headers: {
          ...bearer(token),
          ...(init.body !== undefined && typeof init.body !== 'string' && !(init.body instanceof FormData)
            ? { 'content-type': 'application/json' }
            : {}),
          ...init.headers,
        },
        body:
          init.body === undefined
            ? undefined
            : typeof init.body === 'string' || init.body instanceof FormData
              ? init.body
              : JSON.stringify(init.body),
      }),
    async stop() {
      await server.close();
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const rng = new Rng(11, 'sepa-tests');
let doctorNumber = 0;

export interface NewDoctor {
  /** false: no tax number (MISSING_INFORMATION). */
  complete?: boolean;
}

/** A professional with full payment data (a valid PT IBAN of their own) unless `complete: false`. */
export async function insertDoctor(
  db: Database,
  doctor: NewDoctor = {},
): Promise<{ id: string; iban: string }> {
  doctorNumber++;
  const iban = portugueseIban(rng, '0035');
  const id = await insertUser(db, { email: `doctor${doctorNumber}@demo.pt`, role: 'PROFESSIONAL' });
  await db.query(
    `UPDATE users SET full_name = $2, tax_number = $3, iban = $4, college_number = $5 WHERE id = $1`,
    [
      id,
      `Dra. Teste ${doctorNumber}`,
      doctor.complete === false ? null : '123456789',
      iban,
      `C-${doctorNumber}`,
    ],
  );
  return { id, iban };
}

export interface NewSettlement {
  grossCents: number;
  status?: 'READY_TO_SETTLE' | 'AVAILABLE' | 'SETTLED' | 'PAID' | 'REFUNDED_PAID' | 'REFUNDED';
  month?: string;
}

/**
 * Settlements prepared with SQL, one closed paid case each: the settle branch's confirm and refund routes
 * are not on main yet, so the statuses they would produce are written directly. Payable = net.
 */
export async function insertSettlements(
  db: Database,
  customerId: string,
  professionalId: string,
  rows: NewSettlement[],
): Promise<string[]> {
  const ids: string[] = [];
  for (const row of rows) {
    const fee = row.grossCents < 1600 ? 250 : Math.round(row.grossCents * 0.16);
    const { rows: inserted } = await db.query<{ id: string }>(
      `WITH c AS (
         INSERT INTO cases (customer_id, professional_id, status, type, price_cents, closed_at)
         VALUES ($1, $2, 'CLOSED_BY_PROFESSIONAL', 'SINGLE_CASE', $3, now()) RETURNING id
       )
       INSERT INTO settlements (professional_id, case_id, reference_month, gross_cents, fee_cents, net_cents, status)
       SELECT $2, c.id, $4, $3, $5, $3::int - $5::int, $6 FROM c RETURNING id`,
      [customerId, professionalId, row.grossCents, row.month ?? MONTH, fee, row.status ?? 'SETTLED'],
    );
    ids.push(inserted[0]!.id);
  }
  return ids;
}

export const payableOf = (grossCents: number) =>
  grossCents - (grossCents < 1600 ? 250 : Math.round(grossCents * 0.16));

/** Fails the test with the body when the status is not the one expected; answers the JSON body. */
export async function expectStatus<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect({ status: response.status, body: response.status === status ? null : text }).toEqual({
    status,
    body: null,
  });
  return (text === '' ? null : JSON.parse(text)) as T;
}

const run = promisify(execFile);

/** A child process, awaited: the API under test runs in this process and must keep answering meanwhile. */
async function withFile<T>(bytes: string | Uint8Array, work: (path: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'sepa-xml-'));
  const path = join(dir, 'file.xml');
  writeFileSync(path, bytes);
  try {
    return await work(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Debian's xmllint against the fixture XSD, as a bank's validator would: the bytes as downloaded. */
export function xmllintErrors(xml: string | Uint8Array): Promise<string> {
  return withFile(xml, async (path) => {
    try {
      await run('xmllint', ['--noout', '--schema', PAIN001_XSD, path]);
      return '';
    } catch (error) {
      return String((error as { stderr?: string }).stderr ?? error);
    }
  });
}

/** `npm run cli -- sepa check`: the project's own EPC checks plus the XSD; answers its report. */
export function cliSepaCheck(
  xml: string | Uint8Array,
): Promise<{ ok: boolean; findings: unknown[]; schemaErrors: string[] }> {
  return withFile(xml, async (path) => {
    try {
      const { stdout } = await run('npm', ['run', '--silent', 'cli', '--', 'sepa', 'check', path, '--json']);
      return JSON.parse(stdout);
    } catch (error) {
      const stdout = (error as { stdout?: string }).stdout;
      if (stdout) return JSON.parse(stdout);
      throw error;
    }
  });
}

/** A valid PT IBAN nobody has yet. */
export const newIban = () => portugueseIban(rng, '0033');

const SAMPLES = '/work/shared/fixtures/banking/samples/status-reports';
const FIXTURES = join(import.meta.dirname, '../fixtures/status-reports');

/** The bank's sample "accepted after technical checks" (ACTC), answering our file `msgId`. */
export function acceptedReport(msgId: string, reportId = 'BANK-ACTC-1'): string {
  return readFileSync(join(SAMPLES, 'pain.002.001.03_corporatejs_accepted-technical-check.xml'), 'utf8')
    .replace('<OrgnlMsgId>20110102-0000001</OrgnlMsgId>', `<OrgnlMsgId>${msgId}</OrgnlMsgId>`)
    .replace('<MsgId>1539869</MsgId>', `<MsgId>${reportId}</MsgId>`);
}

/** The whole file refused at group level (DU01), answering `msgId`. */
export function rejectedReport(msgId: string, reportId = 'BANK-RJCT-1'): string {
  return readFileSync(join(FIXTURES, 'pain002-group-rejected.xml'), 'utf8')
    .replace('<OrgnlMsgId>SEPA-2026-05-0002</OrgnlMsgId>', `<OrgnlMsgId>${msgId}</OrgnlMsgId>`)
    .replace('<MsgId>BANK-STS-20260505-0002</MsgId>', `<MsgId>${reportId}</MsgId>`);
}

/**
 * The PART fixture (one transfer accepted, two rejected: AC04, and a proprietary code with RR03)
 * answering our file: its three EndToEndIds become ours, in order.
 */
export function partialReport(
  msgId: string,
  paymentInfoId: string,
  endToEndIds: [string, string, string],
): string {
  let xml = readFileSync(join(FIXTURES, 'pain002-part-transactions.xml'), 'utf8')
    .replace('<OrgnlMsgId>SEPA-2026-05-0001</OrgnlMsgId>', `<OrgnlMsgId>${msgId}</OrgnlMsgId>`)
    .replace(
      '<OrgnlPmtInfId>SEPA-2026-05-0001</OrgnlPmtInfId>',
      `<OrgnlPmtInfId>${paymentInfoId}</OrgnlPmtInfId>`,
    );
  ['STL-2026-04-DOC0042', 'STL-2026-04-DOC0043', 'STL-2026-04-DOC0044'].forEach((theirs, i) => {
    xml = xml.replace(
      `<OrgnlEndToEndId>${theirs}</OrgnlEndToEndId>`,
      `<OrgnlEndToEndId>${endToEndIds[i]}</OrgnlEndToEndId>`,
    );
  });
  return xml;
}

export const unknownFileReport = () =>
  readFileSync(join(SAMPLES, 'pain.002.001.03_corporatejs_accepted-technical-check.xml'), 'utf8');
