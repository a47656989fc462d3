import { createHash } from 'node:crypto';
import type { Database, Queryable } from '../db/client';
import { type Actor, type AuditSubject, type Change, changeWithAudit, mutation } from './mutation';
import { refuse } from './refusal';

/**
 * Money-moving POSTs accept an `Idempotency-Key` (DESIGN §5): the first answer is stored with the hash
 * of its request, in the same transaction as the change it answers, so a retry (double Enter, a
 * network repeat, another server process) gets that answer again and changes nothing; the same key
 * with a different request is refused (IDEMPOTENCY_KEY_REUSED) rather than guessed at. A refusal
 * rolls back and stores nothing: the retry is judged afresh. A key is the admin's own, per route
 * (`scope`): another admin sending the same key makes a new request (migration 0037, decision 0125).
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
  /** The route the key was sent to (`sepa.generate`, …). */
  scope: string;
  key: string;
  sha256: string;
  /** The admin who sent it: the key is theirs alone. */
  actorId: string;
  at: Date;
}

/**
 * Inside the caller's transaction: waits for any other request with the same key from the same admin
 * (a transaction lock), then answers the stored body if that admin's key was answered before, or null
 * to go ahead.
 */
export async function previousAnswer<T>(tx: Queryable, request: IdempotentRequest): Promise<T | null> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2 || ' ' || $3))`, [
    request.scope,
    request.actorId,
    request.key,
  ]);
  const { rows } = await tx.query<{ request_sha256: string; response_body: T }>(
    `SELECT request_sha256, response_body FROM idempotent_requests
      WHERE actor_id = $1 AND scope = $2 AND idempotency_key = $3`,
    [request.actorId, request.scope, request.key],
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

/** An optional `Idempotency-Key`: absent is fine (null), present must be well-formed. */
export const optionalIdempotencyKey = (header: string | undefined): string | null =>
  header === undefined || header === '' ? null : checkIdempotencyKey(header);

/**
 * mutation() for a money-moving POST whose client may send an `Idempotency-Key`: with a request, a key
 * answered before answers its stored result and changes nothing (no audit row either); otherwise the
 * change, its audit row and the stored answer commit together. Without one, it is mutation().
 */
export function idempotentMutation<T>(
  db: Database,
  actor: Actor,
  audit: AuditSubject,
  idempotency: IdempotentRequest | null,
  work: (tx: Queryable) => Promise<Change<T>>,
): Promise<T> {
  if (!idempotency) return mutation(db, actor, audit, work);
  return db.transaction(async (tx) => {
    const previous = await previousAnswer<T>(tx, idempotency);
    if (previous !== null) return previous;
    const result = await changeWithAudit(tx, actor, audit, work);
    await storeAnswer(tx, idempotency, result);
    return result;
  });
}
