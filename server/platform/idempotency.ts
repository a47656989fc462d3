import { createHash } from 'node:crypto';
import type { Queryable } from '../db/client';
import { refuse } from './refusal';

/**
 * Money-moving POSTs accept an `Idempotency-Key` (DESIGN §5): the first answer is stored with the hash
 * of its request, in the same transaction as the change it answers, so a retry (double Enter, a
 * network repeat, another server process) gets that answer again and changes nothing; the same key
 * with a different request is refused (IDEMPOTENCY_KEY_REUSED) rather than guessed at. A refusal
 * rolls back and stores nothing: the retry is judged afresh.
 */

/** Printable ASCII, as a client-generated UUID or ULID is; 1–200 characters. */
const KEY = /^[\x21-\x7e]{1,200}$/;

export function checkIdempotencyKey(header: string | undefined): string {
  if (header === undefined || header === '') throw refuse('IDEMPOTENCY_KEY_REQUIRED');
  if (!KEY.test(header)) throw refuse('IDEMPOTENCY_KEY_INVALID', { field: 'Idempotency-Key' });
  return header;
}

/** JSON with object keys sorted, so two equal requests hash alike whatever order their keys came in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

export const requestHash = (request: unknown): string =>
  createHash('sha256').update(canonical(request)).digest('hex');

export interface IdempotentRequest {
  scope: string;
  key: string;
  sha256: string;
  actorId: string;
  at: Date;
}

/**
 * Inside the caller's transaction: waits for any other request with the same key (a transaction
 * lock), then answers the stored body if this key was answered before, or null to go ahead.
 */
export async function previousAnswer<T>(tx: Queryable, request: IdempotentRequest): Promise<T | null> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', [request.scope, request.key]);
  const { rows } = await tx.query<{ request_sha256: string; response_body: T }>(
    'SELECT request_sha256, response_body FROM idempotent_requests WHERE scope = $1 AND idempotency_key = $2',
    [request.scope, request.key],
  );
  const stored = rows[0];
  if (!stored) return null;
  if (stored.request_sha256 !== request.sha256) throw refuse('IDEMPOTENCY_KEY_REUSED');
  return typeof stored.response_body === 'string'
    ? (JSON.parse(stored.response_body) as T)
    : stored.response_body;
}

export async function storeAnswer(tx: Queryable, request: IdempotentRequest, body: unknown): Promise<void> {
  await tx.query(
    `INSERT INTO idempotent_requests (scope, idempotency_key, request_sha256, response_status, response_body, actor_id, created_at)
     VALUES ($1, $2, $3, 200, $4, $5, $6)`,
    [request.scope, request.key, request.sha256, JSON.stringify(body), request.actorId, request.at],
  );
}
