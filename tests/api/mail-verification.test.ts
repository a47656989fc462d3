import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../server/app';
import { readConfig } from '../../server/config';
import type { Database } from '../../server/db/client';
import { type Listening, listen } from '../../server/http/listen';
import { testDatabaseKinds } from '../support/databases';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink';
import { bearer, count, insertUser, issueToken, postJson } from './harness';

const headerOf = (raw: string, name: string) => {
  const match = new RegExp(`^${name}: (.*(?:\\r?\\n[ \\t].*)*)`, 'im').exec(raw);
  return match ? match[1]!.replace(/\r?\n[ \t]/g, ' ') : null;
};

/** RFC 2047 encoded words (what nodemailer uses for a non-ASCII subject). */
const decodeWords = (value: string) =>
  value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) =>
                String.fromCharCode(Number.parseInt(hex, 16)),
              ),
            'latin1',
          ).toString('utf8'),
    );

const decodeQuotedPrintable = (body: string) =>
  Buffer.from(
    body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

const tokenIn = (raw: string) => /verify-email\?token=([A-Za-z0-9_-]+)/.exec(decodeQuotedPrintable(raw))?.[1];
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const PUBLIC_URL = 'https://panel.example.test';

/** fetch may not let a test choose the Host header; node:http sends whatever it is given. */
const postWithHost = (url: string, host: string, headers: Record<string, string>) =>
  new Promise<number>((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { ...headers, host, 'content-length': '0' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });

describe.each(testDatabaseKinds())('POST /v2/admin/users/{id}/resend/verification-email on $name', (kind) => {
  let db: Database;
  let sink: SmtpSink;
  let viaSmtp: Listening;
  let viaOutbox: Listening;
  let outboxDataDir: string;
  let token: string;

  const resend = (server: Listening, id: string) =>
    postJson(`${server.url}/v2/admin/users/${id}/resend/verification-email`, '', bearer(token));
  const newUser = async (email: string, locale: 'pt-PT' | 'en-GB', name: string) => {
    const id = await insertUser(db, { email });
    await db.query('UPDATE users SET locale = $2, name = $3 WHERE id = $1', [id, locale, name]);
    return id;
  };

  beforeAll(async () => {
    db = await kind.open();
    sink = await startSmtpSink();
    outboxDataDir = mkdtempSync(join(tmpdir(), 'outbox-test-'));
    const config = (env: Record<string, string>) => readConfig({ NODE_ENV: 'test', ...env });
    viaSmtp = await listen(
      createApp({
        db,
        config: config({ SMTP_URL: sink.url, DATA_DIR: outboxDataDir, PUBLIC_URL: PUBLIC_URL }),
      }),
      {
        host: '127.0.0.1',
        port: 0,
      },
    );
    viaOutbox = await listen(createApp({ db, config: config({ DATA_DIR: outboxDataDir }) }), {
      host: '127.0.0.1',
      port: 0,
    });
    token = await issueToken(
      db,
      await insertUser(db, { email: 'admin@mail.test', admin: true, emailVerified: true }),
    );
  });
  beforeEach(() => {
    sink.received.length = 0;
  });
  afterAll(async () => {
    await viaSmtp.close();
    await viaOutbox.close();
    await sink.close();
    await db.close();
    rmSync(outboxDataDir, { recursive: true, force: true });
  });

  it('sends a Portuguese e-mail through SMTP with a link whose token is stored hashed', async () => {
    const id = await newUser('nova@mail.test', 'pt-PT', 'Joana Nova');
    const response = await resend(viaSmtp, id);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ sentTo: 'nova@mail.test' });
    expect(sink.received).toHaveLength(1);
    const [message] = sink.received;
    expect(message!.to).toEqual(['nova@mail.test']);
    expect(decodeWords(headerOf(message!.raw, 'Subject')!)).toBe('Confirme o seu endereço de e-mail');
    const body = decodeQuotedPrintable(message!.raw);
    expect(body).toContain('Olá Joana Nova,');
    expect(body).toContain('<html lang="pt-PT">');
    const link = tokenIn(message!.raw)!;
    expect(link.length).toBeGreaterThanOrEqual(43);
    const { rows } = await db.query<{ token_hash: string; revoked_at: Date | null }>(
      'SELECT token_hash, revoked_at FROM email_verification_tokens WHERE user_id = $1',
      [id],
    );
    expect(rows).toEqual([{ token_hash: sha256(link), revoked_at: null }]);
    expect(message!.raw).not.toContain(sha256(link));
    const audit = await db.query<{ action: string; after: unknown }>(
      "SELECT action, after FROM audit_log WHERE entity_type = 'user' AND entity_id = $1",
      [id],
    );
    expect(audit.rows).toEqual([
      {
        action: 'user.resend-verification-email',
        after: { status: 'NEW_USER', sentTo: 'nova@mail.test', locale: 'pt-PT' },
      },
    ]);
  });

  it('writes in English to an en-GB user, and a new e-mail revokes the older link', async () => {
    const id = await newUser('new@mail.test', 'en-GB', 'Jane New');
    await resend(viaSmtp, id);
    await resend(viaSmtp, id);
    expect(sink.received).toHaveLength(2);
    expect(decodeWords(headerOf(sink.received[1]!.raw, 'Subject')!)).toBe('Confirm your e-mail address');
    expect(decodeQuotedPrintable(sink.received[1]!.raw)).toContain('Hello Jane New,');
    const [first, second] = sink.received.map((m) => sha256(tokenIn(m.raw)!));
    expect(first).not.toBe(second);
    const { rows } = await db.query<{ token_hash: string; live: boolean }>(
      'SELECT token_hash, revoked_at IS NULL AS live FROM email_verification_tokens WHERE user_id = $1 ORDER BY live',
      [id],
    );
    expect(rows).toEqual([
      { token_hash: first, live: false },
      { token_hash: second, live: true },
    ]);
  });

  it('builds the link from PUBLIC_URL, never from a hostile Host header', async () => {
    const id = await newUser('hostile@mail.test', 'en-GB', 'Host Header');
    const status = await postWithHost(
      `${viaSmtp.url}/v2/admin/users/${id}/resend/verification-email`,
      'evil.example:666',
      bearer(token),
    );
    expect(status).toBe(200);
    expect(sink.received).toHaveLength(1);
    const body = decodeQuotedPrintable(sink.received[0]!.raw);
    expect(body).not.toContain('evil.example');
    const links = body.match(/https?:\/\/[^\s"<>]*verify-email\?token=[A-Za-z0-9_-]+/g) ?? [];
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link).toMatch(/^https:\/\/panel\.example\.test\/verify-email\?token=/);
  });

  it('refuses users past NEW_USER with 409 USER_NOT_NEW and sends nothing', async () => {
    for (const flags of [
      { emailVerified: true },
      { emailVerified: true, disabled: true },
      { disabled: true },
    ]) {
      const id = await insertUser(db, {
        email: `not-new-${Object.keys(flags).length}-${flags.disabled ?? false}@mail.test`,
        ...flags,
      });
      const response = await resend(viaSmtp, id);
      expect(response.status).toBe(409);
      expect(await response.json()).toEqual({ code: 'USER_NOT_NEW' });
      expect(await count(db, 'email_verification_tokens WHERE user_id = $1', [id])).toBe(0);
    }
    expect(sink.received).toHaveLength(0);
    const unknown = await resend(viaSmtp, '00000000-0000-4000-8000-00000000abcd');
    expect(unknown.status).toBe(404);
  });

  it('writes an .eml file under $DATA_DIR/outbox when SMTP_URL is not set', async () => {
    const id = await newUser('outbox@mail.test', 'pt-PT', 'Rui Caixa');
    expect((await resend(viaOutbox, id)).status).toBe(200);
    const outbox = join(outboxDataDir, 'outbox');
    const files = readdirSync(outbox);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{4}-\d{2}-\d{2}T.*\.eml$/);
    const raw = readFileSync(join(outbox, files[0]!), 'utf8');
    expect(headerOf(raw, 'To')).toBe('outbox@mail.test');
    expect(decodeWords(headerOf(raw, 'Subject')!)).toBe('Confirme o seu endereço de e-mail');
    expect(sha256(tokenIn(raw)!)).toBe(
      (
        await db.query<{ h: string }>(
          'SELECT token_hash AS h FROM email_verification_tokens WHERE user_id = $1',
          [id],
        )
      ).rows[0]!.h,
    );
    expect(sink.received).toHaveLength(0);
  });

  it('answers 502 MAIL_NOT_SENT when the mail server is unreachable, revoking the link and auditing nothing', async () => {
    const closed = await startSmtpSink();
    await closed.close();
    const broken = await listen(
      createApp({
        db,
        config: readConfig({ NODE_ENV: 'test', SMTP_URL: closed.url, DATA_DIR: outboxDataDir }),
      }),
      { host: '127.0.0.1', port: 0 },
    );
    try {
      const id = await newUser('unlucky@mail.test', 'pt-PT', 'Sem Sorte');
      const response = await resend(broken, id);
      expect(response.status).toBe(502);
      expect(await response.json()).toEqual({ code: 'MAIL_NOT_SENT' });
      expect(
        await count(db, 'email_verification_tokens WHERE user_id = $1 AND revoked_at IS NULL', [id]),
      ).toBe(0);
      expect(await count(db, "audit_log WHERE entity_type = 'user' AND entity_id = $1", [id])).toBe(0);
    } finally {
      await broken.close();
    }
  });

  it('logs a refused recipient by the error class and code, never the address the mail server quotes', async () => {
    const refusing = await startSmtpSink({ rejectRecipients: true });
    const app = await listen(
      createApp({
        db,
        config: readConfig({ NODE_ENV: 'test', SMTP_URL: refusing.url, DATA_DIR: outboxDataDir }),
      }),
      { host: '127.0.0.1', port: 0 },
    );
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const id = await newUser('nobody.here@mail.test', 'pt-PT', 'Ninguém');
      const response = await resend(app, id);
      expect(response.status).toBe(502);
      const lines = logged.mock.calls.map((args) => args.map(String).join(' '));
      expect(lines.some((line) => line.includes(`verification e-mail to user ${id} failed`))).toBe(true);
      expect(lines.filter((line) => line.includes('nobody.here'))).toEqual([]);
    } finally {
      logged.mockRestore();
      await app.close();
      await refusing.close();
    }
  });
});
