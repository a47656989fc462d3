import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeFile } from '../../server/platform/files/store';
import { readAll, testFileSetups } from '../support/file-storages';
import { type CaseWorld, startCaseWorld } from './cases-support';

const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer());

describe.each(testFileSetups())('voice messages streamed with ranges on $name', (setup) => {
  let world: CaseWorld;
  let voiceId: string;
  let file: Buffer;
  let size: number;
  let etag: string;
  beforeAll(async () => {
    world = await startCaseWorld(setup.database, setup.storage);
    const { rows } = await world.db.query<{ id: string; sha256: string }>(
      `SELECT m.id, f.sha256 FROM case_messages m JOIN stored_files f ON f.id = m.voice_file_id
        WHERE m.type = 'VOICE' ORDER BY f.size_bytes DESC, m.id LIMIT 1`,
    );
    voiceId = rows[0]!.id;
    file = await readAll(world.storage.get(rows[0]!.sha256));
    size = file.length;
    etag = `"${rows[0]!.sha256}"`;
  }, 180_000);
  afterAll(async () => world?.stop());

  const voice = (headers: Record<string, string> = {}) =>
    world.get(`/v2/admin/case/voice/${voiceId}`, headers);

  it('serves a real WAV whole without a Range, announcing byte ranges', async () => {
    expect(size).toBeGreaterThan(20_000);
    expect(file.subarray(0, 4).toString('ascii')).toBe('RIFF');
    const response = await voice();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/wav');
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(response.headers.get('content-length')).toBe(String(size));
    expect(response.headers.get('content-range')).toBeNull();
    expect(response.headers.get('etag')).toBe(etag);
    expect(response.headers.get('content-disposition')).toMatch(/^inline; /);
    expect((await bytesOf(response)).equals(file)).toBe(true);
  });

  const partials: [string, number, number][] = [
    ['bytes=0-99', 0, 99],
    ['bytes=1000-1999', 1000, 1999],
    ['bytes=100-', 100, -1],
    ['bytes=-100', -100, -1],
    ['bytes=0-0', 0, 0],
    ['bytes=0-999999999', 0, -1],
    ['bytes=-999999999', 0, -1],
    [' BYTES = 44-47 ', 44, 47],
  ];
  it.each(partials)('answers %s with 206 and exactly those bytes', async (range, from, to) => {
    const start = from < 0 ? size + from : from;
    const end = to < 0 ? size - 1 : to;
    const response = await voice({ range });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes ${start}-${end}/${size}`);
    expect(response.headers.get('content-length')).toBe(String(end - start + 1));
    expect(response.headers.get('content-type')).toBe('audio/wav');
    expect((await bytesOf(response)).equals(file.subarray(start, end + 1))).toBe(true);
  });

  it('answers any range inside the file byte-exactly', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(size - 1), fc.nat(size - 1), async (a, b) => {
        const [start, end] = a <= b ? [a, b] : [b, a];
        const response = await voice({ range: `bytes=${start}-${end}` });
        expect(response.status).toBe(206);
        expect((await bytesOf(response)).equals(file.subarray(start, end + 1))).toBe(true);
      }),
      { numRuns: 25 },
    );
  });

  it.each([
    'bytes=999999999-',
    'bytes=SIZE-',
    'bytes=SIZE-SIZE',
    'bytes=-0',
    'bytes=5-2',
    'bytes=abc',
    'bytes=-',
    'bytes=1-2-3',
    'bytes=0-1,zz',
  ])('answers %s with 416 and the size', async (template) => {
    const response = await voice({ range: template.replaceAll('SIZE', String(size)) });
    expect(response.status).toBe(416);
    expect(response.headers.get('content-range')).toBe(`bytes */${size}`);
    expect((await bytesOf(response)).length).toBe(0);
  });

  it('serves the whole file for several ranges or a unit it does not know (decision 0046)', async () => {
    for (const range of ['bytes=0-9,20-29', 'items=0-5']) {
      const response = await voice({ range });
      expect(response.status).toBe(200);
      expect((await bytesOf(response)).equals(file)).toBe(true);
    }
  });

  it('honours If-Range: the range while the file is the same, the whole file otherwise', async () => {
    const same = await voice({ range: 'bytes=0-9', 'if-range': etag });
    expect(same.status).toBe(206);
    expect((await bytesOf(same)).length).toBe(10);
    const other = await voice({ range: 'bytes=0-9', 'if-range': '"something-else"' });
    expect(other.status).toBe(200);
    expect((await bytesOf(other)).length).toBe(size);
  });

  it('answers 404 VOICE_MESSAGE_NOT_FOUND for a message that is not VOICE, an unknown id or a path trick', async () => {
    const { rows } = await world.db.query<{ id: string }>(
      `SELECT id FROM case_messages WHERE type <> 'VOICE' LIMIT 1`,
    );
    const attachment = await world.db.query<{ id: string }>(
      'SELECT id FROM case_message_attachments LIMIT 1',
    );
    for (const id of [
      rows[0]!.id,
      attachment.rows[0]!.id,
      '00000000-0000-4000-8000-000000000000',
      '..%2F..%2F..%2Fetc%2Fpasswd',
      '%2Fetc%2Fpasswd',
    ]) {
      const response = await world.get(`/v2/admin/case/voice/${id}`, { range: 'bytes=0-10' });
      expect({ id, status: response.status, body: await response.json() }).toEqual({
        id,
        status: 404,
        body: { code: 'VOICE_MESSAGE_NOT_FOUND' },
      });
    }
  });

  it('answers 404 FILE_NOT_FOUND when the stored bytes are missing from the storage', async () => {
    const content = Buffer.from('RIFF-missing-voice-bytes');
    const fileId = await storeFile(world.db, world.storage, {
      content,
      originalName: 'lost.wav',
      contentType: 'audio/wav',
    });
    const { rows } = await world.db.query<{ id: string }>(
      `INSERT INTO case_messages (case_id, sender_id, type, voice_file_id, voice_duration_ms)
       SELECT id, customer_id, 'VOICE', $1, 1000 FROM cases LIMIT 1 RETURNING id`,
      [fileId],
    );
    const { rows: files } = await world.db.query<{ sha256: string }>(
      'SELECT sha256 FROM stored_files WHERE id = $1',
      [fileId],
    );
    await world.storage.delete(files[0]!.sha256);
    const response = await world.get(`/v2/admin/case/voice/${rows[0]!.id}`);
    expect({ status: response.status, body: await response.json() }).toEqual({
      status: 404,
      body: { code: 'FILE_NOT_FOUND' },
    });
  });

  it.each([
    ['an HTML page', 'pagina.html', 'text/html', '<!doctype html><script>alert(1)</script>'],
    ['a PDF', 'relatorio.pdf', 'application/pdf', '%PDF-1.4 nao e voz'],
  ])(
    'sends %s stored as a voice message as octet-stream, attachment — never inline',
    async (_case, name, type, text) => {
      const fileId = await storeFile(world.db, world.storage, {
        content: Buffer.from(text),
        originalName: name,
        contentType: type,
      });
      const { rows } = await world.db.query<{ id: string }>(
        `INSERT INTO case_messages (case_id, sender_id, type, voice_file_id, voice_duration_ms)
       SELECT id, customer_id, 'VOICE', $1, 1000 FROM cases LIMIT 1 RETURNING id`,
        [fileId],
      );
      const response = await world.get(`/v2/admin/case/voice/${rows[0]!.id}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/octet-stream');
      expect(response.headers.get('content-disposition')).toMatch(
        new RegExp(`^attachment; filename="${name}"`),
      );
      expect((await bytesOf(response)).toString()).toBe(text);
    },
  );
});
