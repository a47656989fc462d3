import { request } from 'node:http';
import type { Hono } from 'hono';
import { createApp } from '../../server/app';
import { readConfig } from '../../server/config';
import type { Database } from '../../server/db/client';
import type { AppEnv } from '../../server/http/context';
import { listen } from '../../server/http/listen';
import { hashPassword } from '../../server/platform/passwords';
import { createSession } from '../../server/platform/sessions';

export interface Clock {
  /** null follows the real clock. */
  current: Date | null;
}

export interface RunningApi {
  url: string;
  app: Hono<AppEnv>;
  clock: Clock;
  stop(): Promise<void>;
}

/** The API over real HTTP on a free port, with a clock the test can move. */
export async function startApi(
  db: Database,
  options: { staticDir?: string; env?: Record<string, string> } = {},
): Promise<RunningApi> {
  const { env, ...rest } = options;
  const clock: Clock = { current: null };
  const app = createApp({
    db,
    // env: configuration variables on top of NODE_ENV=test (TRUSTED_PROXIES, PUBLIC_URL, …).
    config: readConfig({ NODE_ENV: 'test', ...env }),
    clock: () => clock.current ?? new Date(),
    ...rest,
  });
  const listening = await listen(app, { host: '127.0.0.1', port: 0 });
  return { url: listening.url, app, clock, stop: listening.close };
}

export interface NewUser {
  role?: 'ADMIN' | 'PROFESSIONAL' | 'CUSTOMER';
  email: string;
  password?: string;
  admin?: boolean;
  disabled?: boolean;
  emailVerified?: boolean;
  professionalVerified?: boolean;
}

// One hash for every test user: scrypt is deliberately slow and the tests need many users.
const hashes = new Map<string, Promise<string>>();
const hashOnce = (password: string) => {
  if (!hashes.has(password)) hashes.set(password, hashPassword(password));
  return hashes.get(password)!;
};

export async function insertUser(db: Database, user: NewUser): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO users (role, email, password_hash, name, admin_data, disabled, email_verified, professional_verified)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [
      user.role ?? (user.admin ? 'ADMIN' : 'CUSTOMER'),
      user.email,
      user.password ? await hashOnce(user.password) : null,
      user.email.split('@')[0],
      user.admin ? JSON.stringify({ permissions: ['all'] }) : null,
      user.disabled ?? false,
      user.emailVerified ?? false,
      user.professionalVerified ?? false,
    ],
  );
  return rows[0]!.id;
}

/** A live token for any user, admin or not: how a non-admin token reaches the admin guard in tests. */
export const issueToken = (db: Database, userId: string) => createSession(db, userId, new Date());

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** How undici says the server closed a kept-alive socket as it was reused: reset, or closed by the other side. */
const REUSED_SOCKET_CLOSED = new Set(['ECONNRESET', 'UND_ERR_SOCKET']);

/**
 * fetch, sent again once when a kept-alive socket was closed before the request reached the server:
 * on a loaded machine a pause between two requests can outlast the server's keep-alive timeout, and
 * the server closes the idle socket as the client reuses it. The request was not read, so sending it
 * again is what a browser does too. (The SAF-T uploads over 32 MiB, seconds apart on a loaded CI
 * machine, failed so as "fetch failed" twice in one day.)
 */
export async function fetchOnce(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    if (!REUSED_SOCKET_CLOSED.has((error as { cause?: { code?: string } }).cause?.code ?? '')) throw error;
    return fetch(url, init);
  }
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export async function count(db: Database, sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params);
  return rows[0]!.n;
}

/**
 * An upload sent chunked (no Content-Length), so the server learns its size only by reading it. The
 * first bytes of the body are `head` (a file signature), the rest filler up to `total` bytes.
 */
export function chunkedUpload(
  method: 'POST' | 'PUT',
  url: string,
  token: string,
  total: number,
  head: Uint8Array = new Uint8Array(),
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, {
      method,
      headers: { ...bearer(token), 'content-type': 'application/pdf', 'transfer-encoding': 'chunked' },
    });
    outgoing.on('response', (response) => {
      let body = '';
      response.on('data', (data: Buffer) => {
        body += data.toString();
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    // The server may answer 413 and close before everything is written.
    outgoing.on('error', (error) => (outgoing.writableEnded ? undefined : reject(error)));
    const piece = Buffer.alloc(1024 * 1024, 1);
    outgoing.write(head);
    let sent = head.byteLength;
    const write = () => {
      while (sent < total) {
        const part = piece.subarray(0, Math.min(piece.length, total - sent));
        sent += part.length;
        if (!outgoing.write(part)) return void outgoing.once('drain', write);
      }
      outgoing.end();
    };
    write();
  });
}
