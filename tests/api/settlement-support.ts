import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { caseSettlementAmounts } from '../../domain/fees';
import type { SettlementStatus } from '../../domain/settlement-status';
import type { Database } from '../../server/db/client';
import type { TestDatabaseKind } from '../support/databases';
import { bearer, insertUser, issueToken, type RunningApi, startApi } from './harness';

/** A valid Portuguese IBAN (the banks' documented example): complete doctors have it. */
export const VALID_IBAN = 'PT50000201231234567890154';

export interface NewSettlement {
  professionalId: string;
  referenceMonth: string;
  priceCents: number;
  status?: SettlementStatus;
  adjustedCents?: number;
}

/**
 * An empty, migrated database behind the API over real HTTP, with an admin and helpers that build
 * exactly the doctors and settlements a test needs (amounts from domain/fees, as production makes them).
 */
export interface SettlementWorld {
  db: Database;
  api: RunningApi;
  adminToken: string;
  customerId: string;
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  /** A request that must answer `status` (the body is shown when it does not); its JSON body. */
  call<T>(method: string, path: string, body?: unknown, status?: number): Promise<T>;
  /** A doctor; `complete` gives every field settling needs. */
  professional(name: string, complete?: boolean): Promise<string>;
  settlement(input: NewSettlement): Promise<string>;
  statuses(ids: readonly string[]): Promise<Record<string, string | undefined>>;
  stop(): Promise<void>;
}

let sequence = 0;

export async function startSettlementWorld(kind: TestDatabaseKind): Promise<SettlementWorld> {
  const dataDir = mkdtempSync(join(tmpdir(), 'settlements-api-'));
  const db = await kind.open();
  const api = await startApi(db, { env: { DATA_DIR: dataDir } });
  const adminId = await insertUser(db, { email: 'admin@demo.pt', admin: true, role: 'ADMIN' });
  const adminToken = await issueToken(db, adminId);
  const customerId = await insertUser(db, { email: 'customer@demo.pt' });

  const world: SettlementWorld = {
    db,
    api,
    adminToken,
    customerId,
    request(method, path, body, headers = {}) {
      const json = body !== undefined && !(body instanceof Uint8Array);
      return fetch(`${api.url}${path}`, {
        method,
        headers: {
          ...bearer(adminToken),
          ...(json ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        body:
          body === undefined ? undefined : json ? JSON.stringify(body) : (body as Uint8Array<ArrayBuffer>),
      });
    },
    async call<T>(method: string, path: string, body?: unknown, status = 200) {
      const response = await world.request(method, path, body);
      const text = await response.text();
      expect({ path, status: response.status, body: response.status === status ? null : text }).toEqual({
        path,
        status,
        body: null,
      });
      return (text ? JSON.parse(text) : null) as T;
    },
    async professional(name, complete = true) {
      sequence += 1;
      const id = await insertUser(db, {
        email: `${name.toLowerCase().replace(/[^a-z0-9]+/g, '.')}.${sequence}@demo.pt`,
        role: 'PROFESSIONAL',
        emailVerified: true,
        professionalVerified: true,
      });
      await db.query(
        `UPDATE users SET name = $2, full_name = $3, tax_number = $4, iban = $5, college_number = $6 WHERE id = $1`,
        complete
          ? [
              id,
              name,
              `${name} Completo`,
              `2${String(sequence).padStart(8, '0')}`,
              VALID_IBAN,
              `OM-${sequence}`,
            ]
          : [id, name, `${name} Incompleto`, null, null, null],
      );
      return id;
    },
    async settlement({
      professionalId,
      referenceMonth,
      priceCents,
      status = 'READY_TO_SETTLE',
      adjustedCents,
    }) {
      const amounts = caseSettlementAmounts(priceCents);
      if (!amounts) throw new Error('a free case has no settlement');
      const { rows: cases } = await db.query<{ id: string }>(
        `INSERT INTO cases (customer_id, professional_id, status, type, price_cents, start_date, end_date, closed_at)
         VALUES ($1, $2, 'CLOSED_BY_PROFESSIONAL', 'SINGLE_CASE', $3, now(), now(), now()) RETURNING id`,
        [customerId, professionalId, priceCents],
      );
      const { rows } = await db.query<{ id: string }>(
        `INSERT INTO settlements (professional_id, case_id, reference_month, gross_cents, fee_cents, net_cents,
                                  adjusted_cents, adjustment_note, status, available_on)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, '2099-01-01') RETURNING id`,
        [
          professionalId,
          cases[0]!.id,
          referenceMonth,
          amounts.grossCents,
          amounts.feeCents,
          amounts.netCents,
          adjustedCents ?? null,
          adjustedCents === undefined ? null : 'seeded adjustment',
          status === 'PENDING_TRANSFER' ? 'SETTLED' : status,
        ],
      );
      const id = rows[0]!.id;
      // PENDING_TRANSFER is stored SETTLED with a live link (decision 0119): a file of its own carries it.
      if (status === 'PENDING_TRANSFER') {
        const payable = adjustedCents ?? amounts.netCents;
        const msgId = `TEST-${++sequence}`;
        await db.query(
          `WITH f AS (
             INSERT INTO sepa_files (msg_id, payment_info_id, amount_cents, transaction_count, reference_month,
                                     execution_date, debtor_name, debtor_iban)
             VALUES ($1, $1 || '-P1', $2, 1, $3, '2099-01-02', 'Debtor', $4) RETURNING id
           ), t AS (
             INSERT INTO sepa_transactions (sepa_file_id, end_to_end_id, professional_id, amount_cents,
                                            creditor_name, creditor_iban, remittance_information)
             SELECT f.id, $1 || '-1', $5, $2, 'Creditor', $4, '' FROM f RETURNING id, sepa_file_id
           )
           INSERT INTO sepa_transaction_settlements (sepa_transaction_id, sepa_file_id, settlement_id, amount_cents)
           SELECT t.id, t.sepa_file_id, $6, $2 FROM t`,
          [msgId, payable, referenceMonth, VALID_IBAN, professionalId, id],
        );
      }
      return id;
    },
    async statuses(ids) {
      const { rows } = await db.query<{ id: string; status: string }>(
        'SELECT id, status FROM settlement_statuses WHERE id = ANY($1::uuid[])',
        [ids],
      );
      const byId = Object.fromEntries(rows.map((row) => [row.id, row.status]));
      return Object.fromEntries(ids.map((id) => [id, byId[id]]));
    },
    async stop() {
      await api.stop();
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return world;
}
