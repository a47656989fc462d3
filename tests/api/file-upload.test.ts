import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app';
import { readConfig } from '../../server/config';
import type { Database } from '../../server/db/client';
import { type Listening, listen } from '../../server/http/listen';
import { UPLOAD_BODY_LIMIT_BYTES } from '../../server/http/routes';
import { openTestStorage, testFileSetups } from '../support/file-storages';
import { bearer, chunkedUpload, count, insertUser, issueToken } from './harness';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe.each(testFileSetups())('POST /v2/admin/files on $name', (setup) => {
  let db: Database;
  let server: Listening;
  let dataDir: string;
  let token: string;

  beforeAll(async () => {
    db = await setup.database.open();
    dataDir = mkdtempSync(join(tmpdir(), 'upload-test-'));
    const storage = openTestStorage(setup.storage, db, dataDir);
    const config = readConfig({ NODE_ENV: 'test', DATA_DIR: dataDir });
    server = await listen(createApp({ db, config, storage }), { host: '127.0.0.1', port: 0 });
    token = await issueToken(db, await insertUser(db, { email: 'admin@upload.test', admin: true }));
  });
  afterAll(async () => {
    await server.close();
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const upload = (name: string, body: Buffer<ArrayBuffer>, type = 'application/pdf') =>
    fetch(`${server.url}/v2/admin/files?name=${encodeURIComponent(name)}`, {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': type },
      body,
    });

  it('stores the body, answers its row, audits it, and serves it back; identical bytes answer the same row', async () => {
    const content = Buffer.from('%PDF-1.4 fatura-recibo FR 2026/77');
    const first = await upload('fatura 77.pdf', content);
    expect(first.status).toBe(201);
    const file = (await first.json()) as Record<string, unknown>;
    expect(file).toMatchObject({
      originalName: 'fatura 77.pdf',
      contentType: 'application/pdf',
      sizeBytes: content.length,
      sha256: sha256(content),
    });
    expect(await count(db, `audit_log WHERE action = 'file.store' AND entity_id = $1`, [file.id])).toBe(1);
    const download = await fetch(`${server.url}/v2/admin/attachments/${file.id}/download`, {
      headers: bearer(token),
    });
    expect(Buffer.from(await download.arrayBuffer()).equals(content)).toBe(true);

    const again = await upload('outro nome.pdf', Buffer.from(content));
    expect(((await again.json()) as { id: string }).id).toBe(file.id);
  });

  it('refuses a declared length over 40 MB with 413 before reading it', async () => {
    const response = await new Promise<number>((resolve, reject) => {
      const outgoing = request(`${server.url}/v2/admin/files?name=big.pdf`, {
        method: 'POST',
        headers: { ...bearer(token), 'content-length': String(UPLOAD_BODY_LIMIT_BYTES + 1) },
      });
      outgoing.on('response', (res) => resolve(res.resume().statusCode ?? 0));
      outgoing.on('error', reject);
      outgoing.write('%PDF');
    });
    expect(response).toBe(413);
  });

  it('refuses a chunked body once it passes 40 MB, storing nothing', async () => {
    const files = await count(db, 'stored_files');
    const chunks = setup.storage === 'postgres' ? await count(db, 'stored_file_chunks') : 0;
    const answer = await chunkedUpload(
      'POST',
      `${server.url}/v2/admin/files?name=big.pdf`,
      token,
      UPLOAD_BODY_LIMIT_BYTES + 1,
    );
    expect({ status: answer.status, body: JSON.parse(answer.body) }).toEqual({
      status: 413,
      body: { code: 'PAYLOAD_TOO_LARGE' },
    });
    expect(await count(db, 'stored_files')).toBe(files);
    if (setup.storage === 'postgres') expect(await count(db, 'stored_file_chunks')).toBe(chunks);
  }, 120_000);

  it.each(['', ' ', 'a/b.pdf', 'a\\b.pdf', 'tab\there.pdf', 'x'.repeat(256)])(
    'refuses the name %j with 400 before storing anything',
    async (name) => {
      const response = await upload(name, Buffer.from('x'));
      expect(response.status).toBe(400);
    },
  );
});
