import type { Database, Queryable } from '../db/client';
import type { FileStorage } from '../platform/files/storage';
import { hashPassword } from '../platform/passwords';
import { type Cell, insertRows, iso } from './bulk';
import { seedCases } from './cases';
import { createFilePools } from './files';
import { seedSettlementsAndSepa } from './finance';
import { Rng } from './random';
import { seedStatements } from './statements';
import { type SeededUsers, seedUsers } from './users';

export const DEFAULT_RANDOM_SEED = 20_260_101;
export const DEFAULT_DEMO_USERS = 300;
// Below this the plan has no verified professional to give cases to (every status needs a few users).
export const MIN_SEED_USERS = 30;

export interface SeedOptions {
  /** Non-admin users to create (demo: 300; benchmarks: up to 1,000,000). */
  users: number;
  randomSeed?: number;
  adminEmail: string;
  adminPassword: string;
  demoPassword: string;
  /** Where voice messages, attachments, invoices and statements are stored (local folder or PostgreSQL). */
  storage: FileStorage;
  /**
   * Reference time the data is laid out around. Default: the start of the current UTC day, so the six
   * months of settlements end today and two seeds on the same day are identical (docs/decisions/0011).
   */
  now?: Date;
}

export interface SeedSummary {
  users: number;
  professionals: number;
  customers: number;
  cases: number;
  messages: number;
  settlements: number;
  sepaFiles: number;
  statementFiles: number;
  statementLines: number;
  payouts: number;
  invoices: number;
  adminEmail: string;
}

// Every table the seed fills; `--reset` empties them (locales and countries are reference data).
const DATA_TABLES = [
  'statement_effects',
  'statement_line_matches',
  'statement_line_history',
  'statement_lines',
  'statement_files',
  'statement_actions',
  'provider_payout_rows',
  'provider_invoices',
  'provider_payouts',
  'source_files',
  'sepa_transaction_settlements',
  'sepa_transactions',
  'sepa_files',
  'settlements',
  'case_reviews',
  'case_message_attachments',
  'case_messages',
  'cases',
  'subscription_payments',
  'share_link_occurrences',
  'professional_interest_areas',
  'interest_areas',
  'export_jobs',
  'audit_log',
  'login_attempts',
  'sessions',
  'users',
  'stored_files',
  // Kept by row triggers, which TRUNCATE does not fire, and bound to no foreign key that would cascade:
  // left alone, a reset's next seed would count every row twice (tests/db/seed.test.ts).
  'dashboard_case_days',
  'dashboard_settlement_months',
  'dashboard_signup_days',
  'user_search_words',
  // The bytes of stored files on a server (chunks cascade); stored_files above only named them.
  'stored_contents',
];

/** Any user at all means the database is in use: the seed never mixes demo rows into real ones. */
const SEED_LOCK_KEY = 731_020_002;
/** The database has users already: a demo dataset is never seeded beside real or earlier data. */
export class AlreadySeededError extends Error {
  constructor() {
    super('the database already has users; reset it before seeding');
  }
}

export async function hasSeedData(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ present: boolean }>('SELECT EXISTS (SELECT 1 FROM users) AS present');
  return rows[0]!.present;
}

export async function clearData(db: Queryable): Promise<void> {
  await db.query(`TRUNCATE ${DATA_TABLES.join(', ')} RESTART IDENTITY CASCADE`);
}

export function defaultSeedNow(real: Date = new Date()): Date {
  return new Date(Date.UTC(real.getUTCFullYear(), real.getUTCMonth(), real.getUTCDate()));
}

/** Fills an empty, migrated database with a deterministic demo dataset, in one transaction. */
export async function seedDatabase(db: Database, options: SeedOptions): Promise<SeedSummary> {
  if (!Number.isInteger(options.users) || options.users < MIN_SEED_USERS)
    throw new RangeError(`seed needs at least ${MIN_SEED_USERS} users, got ${options.users}`);
  if (await hasSeedData(db)) throw new AlreadySeededError();
  const seed = options.randomSeed ?? DEFAULT_RANDOM_SEED;
  const now = (options.now ?? defaultSeedNow()).getTime();
  // One hash for every seeded user: scrypt per user would take hours at 1,000,000 (docs/decisions/0010).
  const [adminHash, demoHash] = await Promise.all([
    hashPassword(options.adminPassword),
    hashPassword(options.demoPassword),
  ]);

  return db.transaction(async (tx) => {
    // Instances started at once on an empty database all try to seed it: the first holds the lock to
    // its commit, the others then find its users and refuse, never a second demo dataset beside it.
    await tx.query('SELECT pg_advisory_xact_lock($1)', [SEED_LOCK_KEY]);
    if (await hasSeedData(tx)) throw new AlreadySeededError();
    const pools = await createFilePools(tx, options.storage, new Rng(seed, 'files'));
    const adminId = await insertAdmin(tx, seed, now, options.adminEmail, adminHash);
    const users = await seedUsers({ db: tx, seed, now, users: options.users, passwordHash: demoHash, pools });
    await seedAuditTrail(tx, now, adminId, users);
    const cases = await seedCases({ db: tx, seed, now, users, pools });
    const finance = await seedSettlementsAndSepa({
      db: tx,
      seed,
      now,
      adminId,
      professionals: users.professionals,
      sources: cases.sources,
      pools,
      storage: options.storage,
    });
    const statements = await seedStatements({
      db: tx,
      seed,
      now,
      adminId,
      storage: options.storage,
      sepaFiles: finance.sepaFiles,
    });
    return {
      users: options.users,
      professionals: users.professionals.length,
      customers: options.users - users.professionals.length,
      cases: cases.cases,
      messages: cases.messages,
      settlements: finance.settlements.length,
      sepaFiles: finance.sepaFiles.length,
      statementFiles: statements.files,
      statementLines: statements.lines,
      payouts: statements.payouts,
      invoices: statements.invoices,
      adminEmail: options.adminEmail,
    };
  });
}

async function insertAdmin(
  db: Queryable,
  seed: number,
  now: number,
  email: string,
  passwordHash: string,
): Promise<string> {
  const id = new Rng(seed, 'admin').uuid();
  await db.query(
    `INSERT INTO users (id, role, email, password_hash, name, full_name, locale, email_verified, admin_data, created_at, last_active_at)
     VALUES ($1, 'ADMIN', $2, $3, 'Administrador', 'Administrador da Plataforma', 'pt-PT', true, $4, $5, $5)`,
    [id, email, passwordHash, JSON.stringify({ permissions: ['*'] }), iso(now - 400 * 86_400_000)],
  );
  return id;
}

/** The admin actions a single user view shows: who disabled or verified whom, and when. */
async function seedAuditTrail(
  db: Queryable,
  now: number,
  adminId: string,
  users: SeededUsers,
): Promise<void> {
  const rows: Cell[][] = [];
  const day = 86_400_000;
  users.disabledUserIds.slice(0, 50).forEach((id, i) => {
    rows.push([
      adminId,
      'user.disable',
      'user',
      id,
      JSON.stringify({ disabled: false }),
      JSON.stringify({ disabled: true }),
      iso(now - (i + 2) * day),
    ]);
  });
  users.professionals
    .filter((p) => p.status === 'PROFESSIONAL_VERIFIED')
    .slice(0, 50)
    .forEach((p, i) => {
      rows.push([
        adminId,
        'professional.verify',
        'user',
        p.id,
        JSON.stringify({ status: 'EMAIL_VERIFIED' }),
        JSON.stringify({ status: 'PROFESSIONAL_VERIFIED' }),
        iso(now - (i + 30) * day),
      ]);
    });
  await insertRows(
    db,
    'audit_log',
    [
      { name: 'actor_id', type: 'uuid' },
      { name: 'action', type: 'text' },
      { name: 'entity_type', type: 'text' },
      { name: 'entity_id', type: 'text' },
      { name: 'before', type: 'jsonb' },
      { name: 'after', type: 'jsonb' },
      { name: 'created_at', type: 'timestamptz' },
    ],
    rows,
  );
}
