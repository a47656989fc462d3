import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../server/db/client';
import { migrate } from '../../server/db/migrate';
import { type ApiProcess, startApiProcess } from '../support/api-processes';
import { bearer, count, insertUser, issueToken } from './harness';
import { insertDoctor, insertSettlements, MONTH } from './sepa-support';

const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl)
  console.warn('TEST_DATABASE_URL is not set: the two-process SEPA concurrency suite is skipped.');

/**
 * Two real server processes on one PostgreSQL, 50 "generate" requests for the same month at once,
 * spread over both: exactly one file, each settlement in it once (issue 11, decision 0069).
 */
describe.skipIf(!serverUrl)(
  'SEPA generation under concurrency, two server processes on one PostgreSQL',
  () => {
    const name = `test_${randomBytes(6).toString('hex')}`;
    const dataDir = mkdtempSync(join(tmpdir(), 'sepa-concurrency-'));
    let db: Database;
    let servers: ApiProcess[] = [];
    let token: string;
    const settlementIds: string[] = [];

    beforeAll(async () => {
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const url = new URL(serverUrl!);
      url.pathname = `/${name}`;
      db = await openDatabase({ databaseUrl: url.toString() });
      await migrate(db);
      const adminId = await insertUser(db, { email: 'admin@demo.pt', admin: true });
      const customerId = await insertUser(db, { email: 'customer@demo.pt', role: 'CUSTOMER' });
      token = await issueToken(db, adminId);
      for (let i = 0; i < 12; i++) {
        const doctor = await insertDoctor(db);
        settlementIds.push(
          ...(await insertSettlements(db, customerId, doctor.id, [
            { grossCents: 4000 + i },
            { grossCents: 1500 },
            { grossCents: 9999 },
          ])),
        );
      }
      servers = await Promise.all(
        [0, 1].map(() => startApiProcess({ DATABASE_URL: url.toString(), DATA_DIR: dataDir })),
      );
    }, 120_000);

    afterAll(async () => {
      await Promise.all(servers.map((server) => server.stop()));
      await db?.close();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('makes exactly one file from 50 concurrent requests, each settlement in it once', async () => {
      // Half retry one key (a double Enter), half carry their own (two admins at once).
      const responses = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          fetch(`${servers[i % 2]!.url}/v2/admin/settlement/sepa/`, {
            method: 'POST',
            headers: {
              ...bearer(token),
              'content-type': 'application/json',
              'idempotency-key': i % 2 === 0 ? 'one-double-enter' : `admin-${i}`,
            },
            body: JSON.stringify({ referenceMonth: MONTH }),
          }).then(async (response) => ({ status: response.status, body: await response.json() })),
        ),
      );
      const made = responses.filter((r) => r.status === 200);
      const refused = responses.filter((r) => r.status !== 200);
      expect(new Set(made.map((r) => r.body.file.id)).size).toBe(1);
      expect(refused.map((r) => [r.status, r.body.code])).toEqual(
        refused.map(() => [409, 'NO_SEPA_CREATED']),
      );
      expect(await count(db, 'sepa_files')).toBe(1);
      expect(
        await count(db, 'sepa_transaction_settlements WHERE settlement_id = ANY($1::uuid[])', [
          settlementIds,
        ]),
      ).toBe(settlementIds.length);
      expect(await count(db, '(SELECT DISTINCT settlement_id FROM sepa_transaction_settlements) d')).toBe(
        settlementIds.length,
      );
      expect(await count(db, `settlement_statuses WHERE status = 'PENDING_TRANSFER'`)).toBe(
        settlementIds.length,
      );
      expect(made[0]!.body.file).toMatchObject({ transferCount: 12, settlementCount: settlementIds.length });
    }, 300_000);
  },
);
