import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateIBAN } from 'ibantools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPain001 } from '../../domain/sepa/read-pain001';
import { readConfig } from '../../server/config';
import type { Database } from '../../server/db/client';
import { openDatabase } from '../../server/db/client';
import { migrate } from '../../server/db/migrate';
import { prepareDatabase } from '../../server/platform/bootstrap';
import { LocalFileStorage } from '../../server/platform/files/local-storage';
import { PostgresFileStorage } from '../../server/platform/files/postgres-storage';
import type { FileStorage } from '../../server/platform/files/storage';
import {
  clearData,
  hasSeedData,
  MIN_SEED_USERS,
  type SeedOptions,
  seedDatabase,
} from '../../server/seed/seed';
import { createPostgresDatabase, testDatabaseKinds } from '../support/databases';
import { openTestStorage, readAll } from '../support/file-storages';

const options = (storage: FileStorage): SeedOptions => ({
  users: 120,
  adminEmail: 'admin@demo.pt',
  adminPassword: 'admin-password-1',
  demoPassword: 'demo-password-1',
  storage,
  now: new Date('2026-03-15T00:00:00Z'),
});

async function snapshot(db: Database) {
  return {
    users: await values(db, `SELECT id || ' ' || email AS v FROM users`),
    cases: await values(db, `SELECT id || ' ' || status || ' ' || price_cents AS v FROM cases`),
    settlements: await values(
      db,
      `SELECT reference_month || ' ' || status || ' ' || sum(net_cents) AS v FROM settlements GROUP BY reference_month, status`,
    ),
    sepa: await values(db, `SELECT msg_id || ' ' || amount_cents AS v FROM sepa_files`),
  };
}
/** The totals triggers keep (migrations 0020, 0039 and 0046), each row as text. */
async function keptTotals(db: Database) {
  return {
    caseDays: await values(db, `SELECT d::text AS v FROM dashboard_case_days d`),
    settlementMonths: await values(db, `SELECT d::text AS v FROM dashboard_settlement_months d`),
    signupDays: await values(db, `SELECT d::text AS v FROM dashboard_signup_days d`),
    doctorMonths: await values(db, `SELECT d::text AS v FROM settlement_doctor_months d`),
    // Without its surrogate id, which a cascaded TRUNCATE does not restart.
    lineTotals: await values(
      db,
      `SELECT concat_ws(' ', kind, status, lines, amount_cents) AS v FROM statement_line_totals`,
    ),
    providerSides: await values(
      db,
      `SELECT concat_ws(' ', side, sum(items), sum(amount_cents)) AS v FROM provider_side_totals GROUP BY side`,
    ),
  };
}
// Filled by each driver's suite, compared with a fresh PGlite seed at the end.
const snapshots: Awaited<ReturnType<typeof snapshot>>[] = [];

const values = async (db: Database, sql: string) =>
  (await db.query<{ v: string }>(sql)).rows.map((r) => r.v).sort();

describe.each(testDatabaseKinds())('demo seed on $name', (kind) => {
  let db: Database;
  let dataDir: string;
  let storage: FileStorage;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'seed-files-'));
    db = await kind.open();
    // As an installation runs: the local folder with PGlite, chunks in the database on a server.
    storage = openTestStorage(kind.name === 'postgres' ? 'postgres' : 'local', db, dataDir);
    await seedDatabase(db, options(storage));
    snapshots.push(await snapshot(db));
  });
  afterAll(async () => {
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses to seed a database that already has users', async () => {
    expect(await hasSeedData(db)).toBe(true);
    await expect(seedDatabase(db, options(storage))).rejects.toThrow(/already has users/);
  });

  it('creates the admin with admin data and every user status, professionals included', async () => {
    const admin = await db.query<{ admin_data: unknown; email_verified: boolean }>(
      `SELECT admin_data, email_verified FROM users WHERE role = 'ADMIN'`,
    );
    expect(admin.rows).toEqual([{ admin_data: { permissions: ['*'] }, email_verified: true }]);
    expect(await values(db, `SELECT DISTINCT status AS v FROM users WHERE role = 'PROFESSIONAL'`)).toEqual([
      'DISABLED',
      'EMAIL_VERIFIED',
      'NEW_USER',
      'PROFESSIONAL_VERIFIED',
    ]);
    expect(await values(db, `SELECT DISTINCT status AS v FROM users WHERE role = 'CUSTOMER'`)).toEqual([
      'DISABLED',
      'EMAIL_VERIFIED',
      'NEW_USER',
    ]);
  });

  it('gives professionals valid Portuguese IBANs, except the few seeded with a broken one', async () => {
    const ibans = await values(
      db,
      `SELECT iban AS v FROM users WHERE role = 'PROFESSIONAL' AND iban IS NOT NULL`,
    );
    const invalid = ibans.filter((iban) => !validateIBAN(iban).valid);
    expect(invalid.length).toBeGreaterThan(0);
    expect(invalid.length).toBeLessThan(ibans.length / 5);
    expect(
      await values(
        db,
        `SELECT count(*)::text AS v FROM users WHERE role = 'PROFESSIONAL' AND tax_number IS NULL`,
      ),
    ).not.toEqual(['0']);
  });

  it('covers every case status, both fund types and all three message types', async () => {
    expect(await values(db, 'SELECT DISTINCT status AS v FROM cases')).toEqual([
      'ACCEPTED',
      'CLOSED_BY_ADMIN',
      'CLOSED_BY_PROFESSIONAL',
      'CLOSED_EXPIRED',
      'CLOSED_LIFETIME',
      'CLOSED_NOT_ANSWERED',
      'CLOSED_NOT_PAID',
      'CLOSED_REJECTED',
      'CREATED',
      'FREE',
      'PAID',
      'WAITING_PAYMENT',
    ]);
    expect(await values(db, 'SELECT DISTINCT type AS v FROM cases')).toEqual(['SINGLE_CASE', 'SUBSCRIPTION']);
    expect(await values(db, 'SELECT DISTINCT type AS v FROM case_messages')).toEqual([
      'CALL',
      'TEXT',
      'VOICE',
    ]);
    const mismatched = await db.query(
      `SELECT c.id FROM cases c LEFT JOIN case_messages m ON m.case_id = c.id
       GROUP BY c.id, c.total_messages HAVING count(m.id) <> c.total_messages`,
    );
    expect(mismatched.rows).toEqual([]);
  });

  it('covers every settlement, SEPA and statement line status over six reference months', async () => {
    expect(await values(db, 'SELECT DISTINCT status AS v FROM settlement_statuses')).toEqual([
      'AVAILABLE',
      'PAID',
      'PENDING_TRANSFER',
      'READY_TO_SETTLE',
      'REFUNDED',
      'REFUNDED_PAID',
      'SETTLED',
    ]);
    expect(await values(db, 'SELECT DISTINCT reference_month AS v FROM settlements')).toEqual([
      '2025-10',
      '2025-11',
      '2025-12',
      '2026-01',
      '2026-02',
      '2026-03',
    ]);
    expect(await values(db, 'SELECT DISTINCT status AS v FROM sepa_files')).toEqual([
      'AVAILABLE',
      'GENERATED',
      'PAID',
      'UNAVAILABLE',
    ]);
    expect(await values(db, 'SELECT DISTINCT status AS v FROM statement_lines')).toEqual([
      'DISCREPANCY',
      'IGNORED',
      'MATCHED',
      'SUGGESTED',
      'UNMATCHED',
    ]);
  });

  it('keeps SEPA amounts exact: file = Σ transactions = Σ settlements paid', async () => {
    const files = await db.query(
      `SELECT f.id FROM sepa_files f JOIN sepa_transactions t ON t.sepa_file_id = f.id
       GROUP BY f.id, f.amount_cents, f.transaction_count
       HAVING sum(t.amount_cents) <> f.amount_cents OR count(*) <> f.transaction_count`,
    );
    expect(files.rows).toEqual([]);
    const transactions = await db.query(
      `SELECT t.id FROM sepa_transactions t
       JOIN sepa_transaction_settlements l ON l.sepa_transaction_id = t.id
       JOIN settlements s ON s.id = l.settlement_id
       GROUP BY t.id, t.amount_cents
       HAVING sum(coalesce(s.adjusted_cents, s.net_cents)) <> t.amount_cents OR sum(l.amount_cents) <> t.amount_cents`,
    );
    expect(transactions.rows).toEqual([]);
    const strays = await db.query(
      `SELECT s.id FROM settlement_statuses s
       WHERE (s.status IN ('PENDING_TRANSFER', 'PAID', 'REFUNDED_PAID'))
         <> EXISTS (SELECT 1 FROM sepa_transaction_settlements l WHERE l.settlement_id = s.id AND l.live)`,
    );
    expect(strays.rows).toEqual([]);
  });

  it('scores every seeded suggestion as the matcher would, so "score ≥ 95" lists the demo\'s sure ones', async () => {
    const { rows } = await db.query<{ suggestions: number; scored: number }>(
      `SELECT count(*)::int AS suggestions, count(*) FILTER (WHERE score >= 0.95::real)::int AS scored
         FROM statement_line_matches WHERE state = 'SUGGESTED'`,
    );
    expect(rows[0]!.suggestions).toBeGreaterThan(0);
    expect(rows[0]!.scored).toBe(rows[0]!.suggestions);
  });

  it('leaves nothing behind on a reset (`seed --reset`): kept totals too, so the same seed again counts the same', async () => {
    const totalsBefore = await keptTotals(db);
    await clearData(db);
    // Every table but the reference data the migrations write is empty: a counter kept by triggers
    // (which TRUNCATE does not fire) would otherwise still count the rows just removed.
    const tables = await values(
      db,
      `SELECT table_name AS v FROM information_schema.tables
        WHERE table_schema = 'public' AND table_type = 'BASE TABLE'
          AND table_name NOT IN ('schema_migrations', 'countries', 'locales')`,
    );
    const leftOver: string[] = [];
    for (const table of tables) {
      const { rows } = await db.query<{ present: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM ${table}) AS present`,
      );
      if (rows[0]!.present) leftOver.push(table);
    }
    expect(leftOver).toEqual([]);
    await seedDatabase(db, options(storage));
    expect(await keptTotals(db)).toEqual(totalsBefore);
  }, 180_000);

  it('stores real voice messages and statement files', async () => {
    const voices = await db.query<{ sha256: string; size_bytes: number }>(
      `SELECT DISTINCT f.sha256, f.size_bytes FROM case_messages m JOIN stored_files f ON f.id = m.voice_file_id`,
    );
    expect(voices.rows.length).toBeGreaterThan(1);
    for (const voice of voices.rows) {
      const bytes = await readAll(storage.get(voice.sha256));
      expect(bytes.length).toBe(voice.size_bytes);
      expect(bytes.subarray(0, 4).toString('ascii')).toBe('RIFF');
      expect(bytes.subarray(8, 12).toString('ascii')).toBe('WAVE');
    }
    const statement = await db.query<{ sha256: string }>(
      'SELECT f.sha256 FROM statement_files s JOIN stored_files f ON f.id = s.file_id LIMIT 1',
    );
    expect((await readAll(storage.get(statement.rows[0]!.sha256))).toString('utf8')).toContain('Data Mov.;');
  });

  it('stores the XML of every SEPA file the console offers to download, as the file and its transfers say', async () => {
    const files = await db.query<{
      id: string;
      msg_id: string;
      payment_info_id: string;
      status: string;
      amount_cents: string;
      sha256: string | null;
    }>(
      `SELECT s.id, s.msg_id, s.payment_info_id, s.status, s.amount_cents::text, f.sha256
         FROM sepa_files s LEFT JOIN stored_files f ON f.id = s.xml_file_id ORDER BY s.msg_id`,
    );
    const generated = files.rows.filter((file) => file.status === 'GENERATED');
    expect(generated.length).toBeGreaterThan(0);
    for (const file of generated) {
      expect(file.sha256, file.msg_id).not.toBeNull();
      const read = readPain001((await readAll(storage.get(file.sha256!))).toString('utf8'));
      if (!read.ok) throw new Error(`${file.msg_id}: ${read.code}`);
      const transfers = await db.query<{ end_to_end_id: string; amount_cents: string }>(
        'SELECT end_to_end_id, amount_cents::text FROM sepa_transactions WHERE sepa_file_id = $1 ORDER BY end_to_end_id',
        [file.id],
      );
      expect(read.file.messageId).toBe(file.msg_id);
      expect(read.file.payments.map((p) => p.paymentInformationId)).toEqual([file.payment_info_id]);
      expect(
        read.file.payments[0]!.transactions.map((t) => [t.endToEndId, String(t.amountCents)]).sort(),
      ).toEqual(transfers.rows.map((t) => [t.end_to_end_id, t.amount_cents]));
      expect(String(read.file.payments[0]!.transactions.reduce((sum, t) => sum + t.amountCents!, 0))).toBe(
        file.amount_cents,
      );
    }
  });
});

describe('seed determinism', () => {
  it('gives the same ids, e-mails and amounts for the same options, on every driver', async () => {
    const filesDir = mkdtempSync(join(tmpdir(), 'seed-det-'));
    const db = await openDatabase({});
    try {
      await migrate(db);
      await seedDatabase(db, options(new LocalFileStorage(filesDir)));
      const again = await snapshot(db);
      expect(again.users.length).toBe(121);
      expect(snapshots.length).toBe(testDatabaseKinds().length);
      for (const earlier of snapshots) expect(again).toEqual(earlier);
    } finally {
      await db.close();
      rmSync(filesDir, { recursive: true, force: true });
    }
  }, 180_000); // seeds inside the test: slow on a loaded machine
});

describe('the smallest seed', () => {
  it('works at MIN_SEED_USERS and is refused below it', async () => {
    const db = await openDatabase({});
    await migrate(db);
    const options = {
      adminEmail: 'min@seed.pt',
      adminPassword: 'admin-min-1',
      demoPassword: 'demo-min-1',
      storage: new LocalFileStorage(mkdtempSync(join(tmpdir(), 'seed-min-'))),
    };
    await expect(seedDatabase(db, { ...options, users: MIN_SEED_USERS - 1 })).rejects.toThrow(RangeError);
    const summary = await seedDatabase(db, { ...options, users: MIN_SEED_USERS });
    expect(summary.cases).toBeGreaterThan(0);
    await db.close();
  }, 180_000);
});

describe.skipIf(!testDatabaseKinds().some((kind) => kind.name === 'postgres'))(
  'instances starting at once on an empty PostgreSQL database',
  () => {
    it('seed it exactly once: one seeds, the others find it seeded and go on', async () => {
      const database = await createPostgresDatabase(process.env.TEST_DATABASE_URL!);
      const instances = await Promise.all([0, 1, 2].map(() => openDatabase({ databaseUrl: database.url })));
      const dataDir = mkdtempSync(join(tmpdir(), 'seed-race-'));
      try {
        const config = readConfig({ DATABASE_URL: database.url, DATA_DIR: dataDir });
        const outcomes = await Promise.all(
          instances.map((db) => prepareDatabase(db, config, MIN_SEED_USERS, new PostgresFileStorage(db))),
        );
        expect(outcomes.filter((outcome) => outcome !== null)).toHaveLength(1);
        const { rows } = await instances[0]!.query<{ admins: number; users: number }>(
          `SELECT count(*) FILTER (WHERE role = 'ADMIN')::int AS admins, count(*)::int AS users FROM users`,
        );
        expect(rows[0]).toEqual({ admins: 1, users: MIN_SEED_USERS + 1 });
      } finally {
        await Promise.all(instances.map((db) => db.close()));
        await database.drop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    }, 240_000);
  },
);
