import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '../../contract/limits';
import { createApp } from '../../server/app';
import { readConfig } from '../../server/config';
import type { Database } from '../../server/db/client';
import { type Listening, listen } from '../../server/http/listen';
import type { FileStorage } from '../../server/platform/files/storage';
import { storeFile } from '../../server/platform/files/store';
import { openTestStorage, testFileSetups } from '../support/file-storages';
import { bearer, chunkedUpload, count, insertUser, issueToken } from './harness';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe.each(testFileSetups())('POST /v2/admin/files on $name', (setup) => {
  let db: Database;
  let server: Listening;
  let dataDir: string;
  let token: string;
  let storage: FileStorage;

  beforeAll(async () => {
    db = await setup.database.open();
    dataDir = mkdtempSync(join(tmpdir(), 'upload-test-'));
    storage = openTestStorage(setup.storage, db, dataDir);
    const config = readConfig({ NODE_ENV: 'test', DATA_DIR: dataDir });
    server = await listen(createApp({ db, config, storage }), { host: '127.0.0.1', port: 0 });
    token = await issueToken(db, await insertUser(db, { email: 'admin@upload.test', admin: true }));
  });
  afterAll(async () => {
    await server.close();
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const upload = (name: string, body: Buffer<ArrayBuffer>, type = 'application/pdf', purpose?: string) =>
    fetch(
      `${server.url}/v2/admin/files?name=${encodeURIComponent(name)}${purpose ? `&purpose=${purpose}` : ''}`,
      { method: 'POST', headers: { ...bearer(token), 'content-type': type }, body },
    );
  const audited = async (id: string) =>
    (
      await db.query<{ after: unknown }>(
        `SELECT after FROM audit_log WHERE action = 'file.store' AND entity_id = $1 ORDER BY id`,
        [id],
      )
    ).rows.map((row) => row.after);

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

  it('answers and audits a repeated upload with the name and type the bytes were first stored under', async () => {
    const content = Buffer.from('%PDF-1.7 recibo repetido');
    const first = (await (await upload('recibo.pdf', content)).json()) as { id: string };
    const again = await upload('outro nome.png', Buffer.from(content), 'image/png');
    expect(again.status).toBe(201);
    const answer = await again.json();
    expect(answer).toMatchObject({
      id: first.id,
      originalName: 'recibo.pdf',
      contentType: 'application/pdf',
    });
    expect(await audited(first.id)).toEqual([
      expect.objectContaining({ originalName: 'recibo.pdf', contentType: 'application/pdf' }),
      expect.objectContaining({ originalName: 'recibo.pdf', contentType: 'application/pdf' }),
    ]);
  });

  it.each([
    ['a PDF declared as HTML', Buffer.from('%PDF-1.4 declarada como html'), 'text/html', 'application/pdf'],
    [
      'a PNG declared as a PDF',
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2]),
      'application/pdf',
      'image/png',
    ],
    ['a GIF with no declared type', Buffer.from('GIF89a\x01\x00\x01\x00'), '', 'image/gif'],
  ])('stores %s under the type its bytes are', async (_case, content, declared, sniffed) => {
    const response = await upload('ficheiro', content, declared);
    expect(response.status).toBe(201);
    const file = (await response.json()) as { id: string; contentType: string };
    expect(file.contentType).toBe(sniffed);
    const { rows } = await db.query<{ content_type: string }>(
      'SELECT content_type FROM stored_files WHERE id = $1',
      [file.id],
    );
    expect(rows[0]!.content_type).toBe(sniffed);
  });

  const wav = Buffer.concat([Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt '), Buffer.alloc(64, 7)]);
  it.each([
    [
      'HTML as an attachment',
      Buffer.from('<!doctype html><script>alert(1)</script>'),
      'text/html',
      undefined,
    ],
    ['JavaScript as an attachment', Buffer.from('fetch("/v2/user/logout")'), 'text/javascript', undefined],
    ['an audio recording as an attachment', wav, 'audio/wav', 'attachment'],
    ['a PDF as a voice message', Buffer.from('%PDF-1.4 voz'), 'audio/mpeg', 'voice'],
    ['HTML as a voice message', Buffer.from('<html><body>voz</body></html>'), 'audio/ogg', 'voice'],
  ])(
    'refuses %s with 415 FILE_TYPE_NOT_ALLOWED, storing and auditing nothing',
    async (_case, content, type, purpose) => {
      const before = { files: await count(db, 'stored_files'), audits: await count(db, 'audit_log') };
      const response = await upload('ficheiro', content, type, purpose);
      expect({ status: response.status, body: await response.json() }).toEqual({
        status: 415,
        body: { code: 'FILE_TYPE_NOT_ALLOWED' },
      });
      expect({ files: await count(db, 'stored_files'), audits: await count(db, 'audit_log') }).toEqual(
        before,
      );
    },
  );

  it('answers 415 to a large (8 MB) body of a type not allowed, storing nothing', async () => {
    const files = await count(db, 'stored_files');
    const body = Buffer.concat([Buffer.from('<!doctype html>'), Buffer.alloc(8 * 1024 * 1024, 0x20)]);
    const response = await upload('grande.html', body, 'text/html');
    expect({ status: response.status, body: await response.json() }).toEqual({
      status: 415,
      body: { code: 'FILE_TYPE_NOT_ALLOWED' },
    });
    expect(await count(db, 'stored_files')).toBe(files);
  });

  it('stores a voice recording for the voice purpose under its audio type', async () => {
    const response = await upload('nota.wav', Buffer.from(wav), 'application/octet-stream', 'voice');
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ originalName: 'nota.wav', contentType: 'audio/wav' });
  });

  it('sends a stored file of a type attachments do not serve as octet-stream, attachment', async () => {
    const id = await storeFile(db, storage, {
      content: Buffer.from('<!doctype html><p>guardado antes da verificação</p>'),
      originalName: 'pagina.html',
      contentType: 'text/html',
    });
    const response = await fetch(`${server.url}/v2/admin/attachments/${id}/download`, {
      headers: bearer(token),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="pagina.html"/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('refuses a declared length over 40 MB with 413 before reading it', async () => {
    const response = await new Promise<number>((resolve, reject) => {
      const outgoing = request(`${server.url}/v2/admin/files?name=big.pdf`, {
        method: 'POST',
        headers: { ...bearer(token), 'content-length': String(MAX_FILE_BYTES + 1) },
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
      MAX_FILE_BYTES + 1,
      new TextEncoder().encode('%PDF-1.4'),
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
