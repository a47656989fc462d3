// The data of bench/lists-under-load.ts, written with SQL (generate_series) the way bench/finance-sepa.ts
// seeds its settlements: 1,000,000 users (10,000 doctors, the rest customers), 1,000,000 closed cases
// with a settlement each over ten months, 1,000,000 statement lines in ten files and 500,000 audit rows;
// the caller vacuums (VACUUM runs outside a transaction).
// Every row goes through the schema's constraints and triggers (foreign keys, the per-statement
// reference checks, the dashboard's day tables); only the order of work is chosen for speed.
import type { Database } from '../server/db/client';

export const SCALE = {
  users: 1_000_000,
  doctors: 10_000,
  settlements: 1_000_000,
  statementFiles: 10,
  statementLines: 1_000_000,
  auditRows: 500_000,
};
/** The month whose settlements wait to be settled ("cases to process"). */
export const OPEN_MONTH = '2026-05';
/** The month whose settlements wait for a SEPA file ("settlements to process"). */
export const SEPA_MONTH = '2026-04';
const MONTHS = 10;

/** Statements separated by `;\n`, timed, in one transaction: its temporary tables live on its one connection. */
const step = async (db: Database, label: string, sql: string, params: unknown[] = []) => {
  const started = performance.now();
  await db.transaction(async (tx) => {
    for (const statement of sql.split(';\n'))
      await tx.query(statement, statement.includes('$') ? params : []);
  });
  console.error(`  ${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
};

/** Doctors and customers numbered 1…n, for joining generated rows to them (dropped at commit). */
const NUMBERED_PEOPLE = `CREATE TEMP TABLE doctor_ids ON COMMIT DROP AS SELECT row_number() OVER (ORDER BY id) AS n, id FROM users WHERE role = 'PROFESSIONAL';
     CREATE TEMP TABLE customer_ids ON COMMIT DROP AS SELECT row_number() OVER (ORDER BY id) AS n, id FROM users WHERE role = 'CUSTOMER';
     CREATE UNIQUE INDEX ON doctor_ids (n);
     CREATE UNIQUE INDEX ON customer_ids (n);
     `;

/** Whether a table already holds rows: a seed cut short (or killed) resumes at its first empty table. */
const filled = async (db: Database, table: string) =>
  (await db.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${table}) AS any`)).rows[0]!.any;

/** Seeds what the database lacks (nothing once complete); answers whether it wrote anything. */
export async function seedListsUnderLoad(db: Database): Promise<boolean> {
  const parts: [string, (db: Database) => Promise<void>][] = [
    ['users', seedUsers],
    ['cases', seedCasesAndSettlements],
    ['statement_files', seedStatements],
    ['audit_log', seedAudit],
  ];
  let wrote = false;
  for (const [table, seed] of parts)
    if (!(await filled(db, table))) {
      await seed(db);
      wrote = true;
    }
  return wrote;
}

async function seedUsers(db: Database): Promise<void> {
  await step(
    db,
    'admin',
    `INSERT INTO users (role, email, name, admin_data, email_verified)
     VALUES ('ADMIN', 'admin@demo.pt', 'Admin', '{"permissions":["all"]}', true)`,
  );
  await step(
    db,
    'doctors',
    `INSERT INTO users (role, email, name, full_name, tax_number, iban, college_number, email_verified,
                        professional_verified, created_at, last_active_at)
     SELECT 'PROFESSIONAL', 'doctor' || n || '@demo.pt', 'Doctor ' || n, 'Dra. Médica ' || n,
            lpad((200000000 + n)::text, 9, '0'), 'PT50000201231234567890154', 'C-' || n, true, n % 3 <> 0,
            timestamptz '2024-01-01' + (n || ' minutes')::interval, timestamptz '2026-05-01' + (n || ' seconds')::interval
       FROM generate_series(1, $1::int) n`,
    [SCALE.doctors],
  );
  await step(
    db,
    'customers',
    `INSERT INTO users (role, email, name, phone_number, email_verified, disabled, created_at, last_active_at)
     SELECT 'CUSTOMER', 'customer' || n || '@demo.pt', 'Cliente ' || n, '9' || lpad(n::text, 8, '0'),
            n % 4 <> 0, n % 97 = 0, timestamptz '2024-01-01' + (n || ' seconds')::interval * 60,
            CASE WHEN n % 5 = 0 THEN NULL ELSE timestamptz '2026-01-01' + (n || ' seconds')::interval END
       FROM generate_series(1, $1::int) n`,
    [SCALE.users - SCALE.doctors - 1],
  );
}

async function seedCasesAndSettlements(db: Database): Promise<void> {
  await step(
    db,
    'cases',
    `${NUMBERED_PEOPLE}INSERT INTO cases (id, customer_id, professional_id, status, type, price_cents, closed_at, created_at)
     SELECT overlay(overlay(md5('case' || g) placing '4' from 13) placing '8' from 17)::uuid, c.id, d.id,
            'CLOSED_BY_PROFESSIONAL', 'SINGLE_CASE', (ARRAY[2500, 3500, 4000, 5000, 6000, 8000])[1 + g % 6],
            timestamptz '2025-08-01' + (g || ' seconds')::interval * 25, timestamptz '2025-08-01' + (g || ' seconds')::interval * 25
       FROM generate_series(0, $1::int - 1) g
       JOIN doctor_ids d ON d.n = 1 + g % $2::int
       JOIN customer_ids c ON c.n = 1 + g % $3::int`,
    [SCALE.settlements, SCALE.doctors, SCALE.users - SCALE.doctors - 1],
  );
  // Ten months of a tenth each: the oldest eight PAID, SEPA_MONTH SETTLED, OPEN_MONTH waiting to be settled.
  await step(
    db,
    'settlements',
    `INSERT INTO settlements (professional_id, case_id, reference_month, gross_cents, fee_cents, net_cents, status, available_on, created_at)
     SELECT c.professional_id, c.id, m.month, c.price_cents, round(c.price_cents * 0.16)::int,
            c.price_cents - round(c.price_cents * 0.16)::int,
            CASE WHEN m.month = $2 THEN 'SETTLED'
                 WHEN m.month = $3 THEN (ARRAY['READY_TO_SETTLE', 'AVAILABLE'])[1 + g % 2]
                 ELSE 'PAID' END,
            '2100-01-01'::date, c.created_at
       FROM generate_series(0, $1::int - 1) g
       JOIN cases c ON c.id = overlay(overlay(md5('case' || g) placing '4' from 13) placing '8' from 17)::uuid
       CROSS JOIN LATERAL (SELECT to_char(date '2025-08-01' + ((g / ($1::int / ${MONTHS})) || ' months')::interval, 'YYYY-MM') AS month) m`,
    [SCALE.settlements, SEPA_MONTH, OPEN_MONTH],
  );
}

async function seedStatements(db: Database): Promise<void> {
  await step(
    db,
    'statement files',
    `WITH stored AS (
       INSERT INTO stored_files (original_name, content_type, size_bytes, sha256, storage_key)
       SELECT 'extrato-' || f || '.csv', 'text/csv', 1000, md5('sf' || f) || md5('sf2' || f), 'bench/statement-' || f
         FROM generate_series(1, $1::int) f RETURNING id, storage_key)
     INSERT INTO statement_files (file_id, format, sha256, account_iban, line_count, entry_count, file_name, imported_at)
     SELECT s.id, 'CSV', md5('st' || s.storage_key) || md5('st2' || s.storage_key), 'PT50000201231234567890154',
            $2::int / $1::int, $2::int / $1::int, 'extrato.csv',
            timestamptz '2026-01-01' + (substring(s.storage_key from 'statement-(\\d+)')::int || ' days')::interval
       FROM stored s`,
    [SCALE.statementFiles, SCALE.statementLines],
  );
  await step(
    db,
    'statement lines',
    `CREATE TEMP TABLE statement_file_ids ON COMMIT DROP AS SELECT row_number() OVER (ORDER BY imported_at) - 1 AS n, id FROM statement_files;
     INSERT INTO statement_lines (statement_file_id, line_number, dedup_key, bank_amount_cents, bank_date, value_date,
                                  description, counterparty_name, kind, status)
     SELECT f.id, 1 + g % ${SCALE.statementLines / SCALE.statementFiles}, 'bench:' || g,
            CASE WHEN g % 3 = 0 THEN -350 ELSE (2500 + (g * 7 % 20) * 250) * (CASE WHEN g % 3 = 1 THEN -1 ELSE 1 END) END,
            date '2025-01-01' + (g % 360), date '2025-01-01' + (g % 360),
            CASE WHEN g % 3 = 0 THEN 'COMISSÃO MANUTENÇÃO ' || g ELSE 'TRF SEPA ' || g END,
            CASE WHEN g % 3 = 0 THEN NULL ELSE 'Clínica ' || (g % 1000) END,
            CASE WHEN g % 3 = 0 THEN 'fee' ELSE 'transfer' END,
            CASE WHEN g % 3 = 0 THEN 'IGNORED' ELSE 'UNMATCHED' END
       FROM generate_series(0, ${SCALE.statementLines} - 1) g
       JOIN statement_file_ids f ON f.n = g / ${SCALE.statementLines / SCALE.statementFiles}`,
  );
}

async function seedAudit(db: Database): Promise<void> {
  await step(
    db,
    'audit log',
    `WITH admin AS (SELECT id FROM users WHERE role = 'ADMIN' LIMIT 1),
     written AS (
       INSERT INTO audit_log (actor_id, action, entity_type, entity_id, before, after, created_at)
       SELECT admin.id, (ARRAY['user.disable', 'case.close', 'settlement.update', 'statement.ignore'])[1 + g % 4],
              (ARRAY['user', 'case', 'settlement', 'statement_line'])[1 + g % 4], md5('entity' || g),
              '{"status":"A"}', '{"status":"B"}', timestamptz '2025-06-01' + (g || ' seconds')::interval * 30
         FROM generate_series(1, $1::int) g, admin
       RETURNING id, entity_type, entity_id)
     INSERT INTO audit_log_entities (entity_type, entity_id, audit_id) SELECT entity_type, entity_id, id FROM written`,
    [SCALE.auditRows],
  );
}
