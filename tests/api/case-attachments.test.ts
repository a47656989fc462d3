import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeFile } from '../../server/platform/files/store';
import { readAll, testFileSetups } from '../support/file-storages';
import { type CaseWorld, startCaseWorld } from './cases-support';

const DOWNLOAD = '/v2/admin/case-message/attachments/download';

/** fetch normalises `..` away; a raw request puts the exact path on the wire. */
function rawGet(base: string, path: string, token: string): Promise<{ status: number; body: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe.each(testFileSetups())('case message attachment downloads on $name', (setup) => {
  let world: CaseWorld;
  beforeAll(async () => {
    world = await startCaseWorld(setup.database, setup.storage);
  }, 180_000);
  afterAll(async () => world?.stop());

  const attachments = async () =>
    (
      await world.db.query<{ id: string; original_name: string; content_type: string; sha256: string }>(
        `SELECT DISTINCT ON (f.content_type) a.id, f.original_name, f.content_type, f.sha256
           FROM case_message_attachments a JOIN stored_files f ON f.id = a.file_id ORDER BY f.content_type, a.id`,
      )
    ).rows;

  it('sends PDFs and images under their original names, with type, length and nosniff', async () => {
    const rows = await attachments();
    expect(rows.map((r) => r.content_type)).toEqual(['application/pdf', 'image/png']);
    for (const row of rows) {
      const stored = await readAll(world.storage.get(row.sha256));
      const response = await world.get(`${DOWNLOAD}?id=${row.id}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(row.content_type);
      expect(response.headers.get('content-length')).toBe(String(stored.length));
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-disposition')).toBe(
        `attachment; filename="${row.original_name}"; filename*=UTF-8''${row.original_name}`,
      );
      expect(Buffer.from(await response.arrayBuffer()).equals(stored)).toBe(true);
    }
  });

  it('keeps an accented, quoted name exact in filename* with an ASCII fallback', async () => {
    const name = 'relatório "final" 50%.pdf';
    const fileId = await storeFile(world.db, world.storage, {
      content: Buffer.from('%PDF-1.4 relatório'),
      originalName: name,
      contentType: 'application/pdf',
    });
    const { rows } = await world.db.query<{ id: string }>(
      `INSERT INTO case_message_attachments (message_id, file_id)
       SELECT id, $1 FROM case_messages WHERE type = 'TEXT' LIMIT 1 RETURNING id`,
      [fileId],
    );
    const response = await world.get(`${DOWNLOAD}?id=${rows[0]!.id}`);
    expect(response.status).toBe(200);
    const disposition = response.headers.get('content-disposition')!;
    expect(disposition).toBe(
      `attachment; filename="relat_rio _final_ 50_.pdf"; filename*=UTF-8''relat%C3%B3rio%20%22final%22%2050%25.pdf`,
    );
    expect(decodeURIComponent(disposition.split("UTF-8''")[1]!)).toBe(name);
  });

  it('reaches nothing outside the stored files by any id or path trick', async () => {
    const { rows } = await world.db.query<{ id: string }>(
      `SELECT id FROM case_messages WHERE type = 'VOICE' LIMIT 1`,
    );
    const attempts: [string, number][] = [
      [`${DOWNLOAD}?id=../../../../etc/passwd`, 400],
      [`${DOWNLOAD}?id=..%2F..%2F..%2Fetc%2Fpasswd`, 400],
      [`${DOWNLOAD}?id=%2Fetc%2Fpasswd`, 400],
      [`${DOWNLOAD}?id=/etc/passwd`, 400],
      [`${DOWNLOAD}?id=C:%5Cwindows%5Cwin.ini`, 400],
      [`${DOWNLOAD}?id=`, 400],
      [DOWNLOAD, 400],
      [`${DOWNLOAD}?id=00000000-0000-4000-8000-000000000000`, 404],
      // a voice message id or a stored file id is not an attachment id
      [`${DOWNLOAD}?id=${rows[0]!.id}`, 404],
      [`${DOWNLOAD}/../../../../etc/passwd`, 404],
      [`${DOWNLOAD}/..%2F..%2F..%2Fetc%2Fpasswd`, 404],
      ['/v2/admin/case/voice/..%2F..%2F..%2F..%2Fetc%2Fpasswd', 404],
      ['/v2/admin/case/voice/../../../../../etc/passwd', 404],
    ];
    const files = await world.db.query<{ id: string }>('SELECT id FROM stored_files LIMIT 1');
    attempts.push([`${DOWNLOAD}?id=${files.rows[0]!.id}`, 404]);
    for (const [path, status] of attempts) {
      const response = await rawGet(world.url, path, world.adminToken);
      expect({ path, status: response.status }).toEqual({ path, status });
      expect(response.body).not.toContain('root:');
      expect(JSON.parse(response.body)).toHaveProperty('code');
    }
  });
});
