import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { SourceImportJob, SourceKind } from '../../contract/source-import';
import type { ProviderCsvMapping } from '../../domain/sources/provider-csv';
import { readProviderPayoutCsv } from '../../domain/sources/provider-csv';
import { readSaftFile } from '../../domain/sources/saft-pt';
import { type SourceEntries, sourceEntries } from '../../domain/sources/source-ids';
import { readStripeBalancePayouts } from '../../domain/sources/stripe-balance-payouts';
import { readStripePayoutReport } from '../../domain/sources/stripe-payouts';
import type { Database } from '../../server/db/client';
import { seedDatabase } from '../../server/seed/seed';
import type { TestDatabaseKind } from '../support/databases';
import { openTestStorage } from '../support/file-storages';
import { bearer, fetchOnce, insertUser, issueToken, type RunningApi, startApi } from './harness';

/** A month the seed has paid, refunded and paid out in (the seed's clock is 2026-03-15). */
export const SOURCE_MONTH = '2026-01';

export interface SourceApi {
  db: Database;
  api: RunningApi;
  token: string;
  close(): Promise<void>;
}

/** A seeded database (its payments are what the demo's source files are written from) and its file storage. */
export async function seededSourceDatabase(kind: TestDatabaseKind, now = new Date('2026-03-15T00:00:00Z')) {
  const dataDir = mkdtempSync(join(tmpdir(), 'source-import-'));
  const db = await kind.open();
  const storage = openTestStorage(kind.name === 'postgres' ? 'postgres' : 'local', db, dataDir);
  await seedDatabase(db, {
    users: 120,
    adminEmail: 'admin@demo.pt',
    adminPassword: 'admin-password-1',
    demoPassword: 'demo-password-1',
    storage,
    now,
  });
  return {
    db,
    storage,
    async close() {
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** That database and the API on it, with an admin's token. */
export async function seededSourceApi(kind: TestDatabaseKind): Promise<SourceApi> {
  const seeded = await seededSourceDatabase(kind);
  const { db } = seeded;
  const api = await startApi(db);
  const adminId = await insertUser(db, { email: 'sources-admin@example.pt', admin: true });
  const token = await issueToken(db, adminId);
  return {
    db,
    api,
    token,
    async close() {
      await api.stop();
      await seeded.close();
    },
  };
}

/** What the console's preview counts for a file: read with the domain reader, counted by `sourceEntries`. */
export function previewSource(
  kind: SourceKind,
  bytes: Uint8Array,
  mapping?: ProviderCsvMapping,
): SourceEntries {
  if (kind === 'SAFT_INVOICES') {
    const read = readSaftFile(bytes, { maxBytes: 1 << 29, maxRatio: 100 });
    if (!read.ok) throw new Error(JSON.stringify(read.refusal));
    return sourceEntries(kind, read.value);
  }
  const text = Buffer.from(bytes).toString('utf8');
  if (kind === 'STRIPE_BALANCE_PAYOUTS') {
    const read = readStripeBalancePayouts(text);
    if (!read.ok) throw new Error(JSON.stringify(read.refusal));
    return sourceEntries(kind, read.value);
  }
  if (kind === 'STRIPE_PAYOUTS') {
    const read = readStripePayoutReport(text);
    if (!read.ok) throw new Error(JSON.stringify(read.refusal));
    return sourceEntries(kind, read.value);
  }
  const read = readProviderPayoutCsv(text, mapping ?? {});
  if (!read.ok) throw new Error(JSON.stringify(read.refusal));
  return sourceEntries(kind, read.value);
}

export interface SourcePost {
  kind: SourceKind;
  fileName: string;
  expected?: { rows: number; totalCents: number };
  mapping?: ProviderCsvMapping;
  headers?: Record<string, string>;
}

export async function postSource(api: SourceApi, bytes: Uint8Array, post: SourcePost): Promise<Response> {
  const expected =
    post.expected ??
    (() => {
      const entries = previewSource(post.kind, bytes, post.mapping);
      return { rows: entries.rows, totalCents: entries.totalCents };
    })();
  const query = new URLSearchParams({
    kind: post.kind,
    fileName: post.fileName,
    expectedRows: String(expected.rows),
    expectedTotalCents: String(expected.totalCents),
    ...(post.mapping ? { mapping: JSON.stringify(post.mapping) } : {}),
  });
  return fetchOnce(`${api.api.url}/v2/admin/sources/imports?${query}`, {
    method: 'POST',
    headers: { ...bearer(api.token), 'content-type': 'application/octet-stream', ...post.headers },
    body: bytes as Uint8Array<ArrayBuffer>,
  });
}

/** Follows a job the way the console does, until it is no longer RUNNING. */
export async function finishedSourceJob(api: SourceApi, id: string): Promise<SourceImportJob> {
  for (let attempt = 0; attempt < 1_200; attempt++) {
    const response = await fetchOnce(`${api.api.url}/v2/admin/sources/imports/${id}`, {
      headers: bearer(api.token),
    });
    expect(response.status).toBe(200);
    const job = (await response.json()) as SourceImportJob;
    if (job.status !== 'RUNNING') return job;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`source import ${id} never finished`);
}

/** Uploads and waits: the finished job, or the refusal's status and body. */
export async function importSource(
  api: SourceApi,
  bytes: Uint8Array,
  post: SourcePost,
): Promise<{ status: number; job?: SourceImportJob; body: Record<string, unknown> }> {
  const response = await postSource(api, bytes, post);
  const body = (await response.json()) as Record<string, unknown> & { job?: SourceImportJob };
  if (response.status !== 202) return { status: response.status, body };
  return { status: 202, job: await finishedSourceJob(api, body.job!.id), body };
}

export const utf8 = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));
