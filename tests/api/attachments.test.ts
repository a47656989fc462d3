import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app';
import { readConfig } from '../../server/config';
import type { Database } from '../../server/db/client';
import { type Listening, listen } from '../../server/http/listen';
import { storeFile } from '../../server/platform/files/store';
import { openTestStorage, testFileSetups } from '../support/file-storages';
import { bearer, insertUser, issueToken } from './harness';

const SECRET = 'outside-the-store';

describe.each(testFileSetups())('GET /v2/admin/attachments/{id}/download on $name', (setup) => {
  let db: Database;
  let server: Listening;
  let dataDir: string;
  let token: string;
  let pngId: string;
  const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

  const download = (path: string) => fetch(`${server.url}${path}`, { headers: bearer(token) });

  beforeAll(async () => {
    db = await setup.database.open();
    dataDir = mkdtempSync(join(tmpdir(), 'attachments-test-'));
    // a file next to the store that no request may ever reach
    writeFileSync(join(dataDir, 'secret.txt'), SECRET);
    const storage = openTestStorage(setup.storage, db, dataDir);
    const config = readConfig({ NODE_ENV: 'test', DATA_DIR: dataDir });
    server = await listen(createApp({ db, config, storage }), { host: '127.0.0.1', port: 0 });
    token = await issueToken(db, await insertUser(db, { email: 'admin@files.test', admin: true }));
    pngId = await storeFile(db, storage, {
      content: png,
      originalName: 'cédula "frente"; 1.png',
      contentType: 'image/png',
    });
  });
  afterAll(async () => {
    await server.close();
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('streams the stored bytes with type, length, the original name and nosniff', async () => {
    const response = await download(`/v2/admin/attachments/${pngId}/download`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('content-length')).toBe(String(png.byteLength));
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const disposition = response.headers.get('content-disposition')!;
    expect(disposition).toMatch(/^attachment; /);
    const encoded = /filename\*=UTF-8''([^;]+)/.exec(disposition)![1]!;
    expect(decodeURIComponent(encoded)).toBe('cédula "frente"; 1.png');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(png);
  });

  it('answers 404 ATTACHMENT_NOT_FOUND for an unknown id', async () => {
    const response = await download('/v2/admin/attachments/00000000-0000-4000-8000-00000000beef/download');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ code: 'ATTACHMENT_NOT_FOUND' });
  });

  it('answers 404 when the row exists but its bytes are gone, without a 500', async () => {
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO stored_files (original_name, content_type, size_bytes, sha256, storage_key)
       VALUES ('gone.pdf', 'application/pdf', 10, $1, $2) RETURNING id`,
      ['b'.repeat(64), `bb/${'b'.repeat(64)}`],
    );
    const response = await download(`/v2/admin/attachments/${rows[0]!.id}/download`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ code: 'ATTACHMENT_NOT_FOUND' });
  });

  it.each([
    '..%2f..%2fsecret.txt',
    '..%2fsecret.txt',
    '%2e%2e%2fsecret.txt',
    '%2Fetc%2Fpasswd',
    '..',
    encodeURIComponent('/etc/passwd'),
    'secret.txt',
    `${'0'.repeat(8)}-..%2f..-0000-0000-000000000000`,
    `aa%2f${'a'.repeat(64)}`,
  ])('never serves a file outside the store for %s', async (trick) => {
    const response = await download(`/v2/admin/attachments/${trick}/download`);
    expect([400, 404]).toContain(response.status);
    const text = await response.text();
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('root:');
  });

  it('never serves a file outside the store through raw, unnormalised paths', async () => {
    for (const raw of [
      `/v2/admin/attachments/../../secret.txt/download`,
      `/v2/admin/attachments/${pngId}/../../../secret.txt`,
    ]) {
      const response = await download(raw);
      expect(response.status).not.toBe(200);
      expect(await response.text()).not.toContain(SECRET);
    }
  });
});
