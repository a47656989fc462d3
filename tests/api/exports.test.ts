import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ptPT from '../../locales/pt-PT.json';
import { createExportFile } from '../../server/exports/export-file';
import { recordStoredFile } from '../../server/platform/files/store';
import { testDatabaseKinds } from '../support/databases';
import {
  type ExportWorld,
  euros,
  hasLibreOffice,
  lisbonWallClock,
  PUBLIC_URL,
  readCsv,
  readXlsxWithLibreOffice,
  startExportWorld,
} from './exports-support';
import { count, insertUser, issueToken } from './harness';

interface Job {
  id: string;
  type: string;
  status: string;
  rowsWritten: number;
  estimatedTotal: number;
  errorReason: string | null;
  fileName: string | null;
  sizeBytes: number | null;
}

const RANGE = { startDate: '2023-01-01', endDate: '2026-03-15' };

describe.each(testDatabaseKinds())('exports API on $name', (kind) => {
  let world: ExportWorld;
  beforeAll(async () => {
    world = await startExportWorld(kind);
  }, 180_000);
  afterAll(async () => world?.stop());

  const jobCount = () => count(world.db, 'export_jobs');
  const job = async (id: string): Promise<Job> => (await world.get(`/v2/admin/exports/${id}`)).json();

  async function start(path: string, body: Record<string, unknown>): Promise<Job> {
    const response = await world.post(path, { format: 'CSV', locale: 'pt-PT', ...body });
    expect(response.status).toBe(202);
    const queued = (await response.json()) as Job;
    expect(queued.status).toBe('queued');
    return queued;
  }

  /** Starts an export, lets this instance's runner write it, and answers the job and the file. */
  async function exportFile(path: string, body: Record<string, unknown>) {
    const queued = await start(path, body);
    expect(await world.runner.runNext()).toBe(true);
    const done = await job(queued.id);
    expect(done).toMatchObject({ status: 'done', errorReason: null });
    const response = await world.get(`/v2/admin/exports/${queued.id}/download`);
    expect(response.status).toBe(200);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(bytes.length).toBe(done.sizeBytes);
    return { job: done, bytes, headers: response.headers };
  }

  const peopleIn = async (roleSql: string, column: string, start: string, end: string) =>
    (
      await world.db.query<{
        id: string;
        name: string;
        email: string;
        created_at: Date;
        last_active_at: Date | null;
      }>(
        `SELECT id, name, email, created_at, last_active_at FROM users
          WHERE ${roleSql} AND ${column} >= ($1::date::timestamp AT TIME ZONE 'Europe/Lisbon')
            AND ${column} < (($2::date + 1)::timestamp AT TIME ZONE 'Europe/Lisbon')
          ORDER BY ${column}, id`,
        [start, end],
      )
    ).rows;

  it('exports customers by created date as a pt-PT CSV: every row, Lisbon times, BOM and `;`', async () => {
    const {
      job: done,
      bytes,
      headers,
    } = await exportFile('/v2/admin/users/export', {
      type: 'CUSTOMERS',
      dateField: 'CREATED',
      ...RANGE,
    });
    const expected = await peopleIn(`role = 'CUSTOMER'`, 'created_at', RANGE.startDate, RANGE.endDate);
    expect(expected.length).toBeGreaterThan(5);
    const [header, ...rows] = readCsv(bytes, ';');
    expect(header!.slice(0, 5)).toEqual(['ID', 'Perfil', 'Nome', 'Nome completo', 'E-mail']);
    expect(rows.map((r) => r[0])).toEqual(expected.map((u) => u.id));
    expect(rows.map((r) => r[4])).toEqual(expected.map((u) => u.email));
    const created = header!.indexOf('Criado em (Lisboa)');
    expect(rows.map((r) => r[created])).toEqual(expected.map((u) => lisbonWallClock(u.created_at)));
    expect(done.rowsWritten).toBe(expected.length);
    expect(headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(headers.get('content-disposition')).toContain('attachment;');
    expect(headers.get('content-disposition')).toContain(
      encodeURIComponent('Pacientes 2023-01-01 2026-03-15.csv'),
    );
  });

  it('exports users by last-active date, customers and professionals together', async () => {
    const { bytes } = await exportFile('/v2/admin/users/export', {
      type: 'USERS',
      dateField: 'LAST_ACTIVE',
      startDate: '2025-06-01',
      endDate: '2026-03-15',
      locale: 'en-GB',
    });
    const expected = await peopleIn(`role <> 'ADMIN'`, 'last_active_at', '2025-06-01', '2026-03-15');
    const [header, ...rows] = readCsv(bytes, ',');
    expect(header).toContain('Last active (Lisbon)');
    expect(rows.map((r) => r[0])).toEqual(expected.map((u) => u.id));
    const roles = new Set(rows.map((r) => r[1]));
    // In the export's language, with the console's words (issue 29).
    expect(roles).toEqual(new Set(['Patient', 'Doctor']));
  });

  it('exports professionals with every field of the specification, money in euros with its currency', async () => {
    // Seeded prices are whole euros; one with cents shows they survive.
    await world.db.query(
      `UPDATE users SET case_price_cents = 1250 WHERE id = (SELECT id FROM users WHERE role = 'PROFESSIONAL'
          AND created_at >= '2023-06-01' ORDER BY created_at LIMIT 1)`,
    );
    const { bytes } = await exportFile('/v2/admin/users/export', { type: 'PROFESSIONALS', ...RANGE });
    const { rows: truth } = await world.db.query<{
      id: string;
      case_price_cents: number | null;
      iban: string | null;
      share_link_id: string | null;
      areas: string | null;
      college_card_front_file_id: string | null;
    }>(
      `SELECT u.id, u.case_price_cents, u.iban, u.share_link_id, u.college_card_front_file_id,
              (SELECT string_agg(a.name, ', ' ORDER BY a.name) FROM professional_interest_areas p
                 JOIN interest_areas a ON a.id = p.area_id WHERE p.professional_id = u.id) AS areas
         FROM users u WHERE role = 'PROFESSIONAL'
          AND created_at >= ('2023-01-01'::timestamp AT TIME ZONE 'Europe/Lisbon') ORDER BY created_at, id`,
    );
    const [header, ...rows] = readCsv(bytes, ';');
    for (const field of [
      'Preço do caso',
      'Moeda do caso',
      'Preço da subscrição',
      'Áreas de interesse',
      'IBAN',
      'BIC/SWIFT',
      'N.º da Ordem',
      'Link da associação',
      'Cédula (frente)',
      'Percurso profissional',
    ])
      expect(header).toContain(field);
    expect(rows.length).toBe(truth.length);
    const at = (name: string) => header!.indexOf(name);
    truth.forEach((t, i) => {
      const row = rows[i]!;
      expect(row[0]).toBe(t.id);
      expect(row[at('Preço do caso')]).toBe(t.case_price_cents === null ? '' : euros(t.case_price_cents));
      expect(row[at('Moeda do caso')]).toBe('EUR');
      expect(row[at('IBAN')]).toBe(t.iban ?? '');
      expect(row[at('Link de partilha')]).toBe(t.share_link_id ?? '');
      expect(row[at('Áreas de interesse')]).toBe(t.areas ?? '');
      expect(row[at('Cédula (frente)')]).toBe(
        t.college_card_front_file_id
          ? `${PUBLIC_URL}/v2/admin/attachments/${t.college_card_front_file_id}/download`
          : '',
      );
    });
    expect(truth.some((t) => t.case_price_cents !== null && t.case_price_cents % 100 !== 0)).toBe(true);
  });

  it('exports cases with price, currency and the chat link', async () => {
    const { bytes } = await exportFile('/v2/admin/cases/export', {
      startDate: '2025-09-01',
      endDate: '2026-03-15',
    });
    const { rows: truth } = await world.db.query<{ id: string; price_cents: number; status: string }>(
      `SELECT id, price_cents, status FROM cases
        WHERE created_at >= ('2025-09-01'::timestamp AT TIME ZONE 'Europe/Lisbon')
          AND created_at < ('2026-03-16'::timestamp AT TIME ZONE 'Europe/Lisbon') ORDER BY created_at, id`,
    );
    const [header, ...rows] = readCsv(bytes, ';');
    expect(rows.length).toBe(truth.length);
    truth.forEach((t, i) => {
      expect(rows[i]![0]).toBe(t.id);
      expect(rows[i]![header!.indexOf('Preço')]).toBe(euros(t.price_cents));
      expect(rows[i]![header!.indexOf('Moeda')]).toBe('EUR');
      // The status in the export's language (pt-PT), with the console's words.
      expect(rows[i]![header!.indexOf('Estado')]).toBe(
        ptPT.cases.status[t.status as keyof typeof ptPT.cases.status],
      );
      expect(rows[i]![header!.indexOf('Link da conversa')]).toBe(`${PUBLIC_URL}/chat/${t.id}`);
    });
  });

  it('exports the statistics: share-link occurrences per Lisbon day, link and doctor', async () => {
    const { bytes } = await exportFile('/v2/admin/share-link-occurrences', {
      startDate: '2025-12-01',
      endDate: '2026-03-15',
    });
    const { rows: truth } = await world.db.query<{
      day: string;
      link: string;
      pro: string;
      n: number;
      visits: number;
    }>(
      `SELECT to_char(occurred_at AT TIME ZONE 'Europe/Lisbon', 'YYYY-MM-DD') AS day, share_link_id AS link,
              professional_id AS pro, count(*)::int AS n, count(*) FILTER (WHERE kind = 'VISIT')::int AS visits
         FROM share_link_occurrences
        WHERE occurred_at >= ('2025-12-01'::timestamp AT TIME ZONE 'Europe/Lisbon')
          AND occurred_at < ('2026-03-16'::timestamp AT TIME ZONE 'Europe/Lisbon')
        GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    );
    expect(truth.length).toBeGreaterThan(3);
    const [header, ...rows] = readCsv(bytes, ';');
    expect(header).toEqual([
      'Dia (Lisboa)',
      'Link de partilha',
      'Nome de referência',
      'ID do médico',
      'Médico',
      'Visitas',
      'Registos',
      'Casos',
      'Total',
    ]);
    expect(rows.map((r) => [r[0], r[1], r[3], Number(r[8]), Number(r[5])])).toEqual(
      truth.map((t) => [t.day, t.link, t.pro, t.n, t.visits]),
    );
  });

  it.skipIf(!hasLibreOffice)(
    'writes XLSX that LibreOffice reads back: every row, accents and cents intact',
    async () => {
      const { bytes, headers } = await exportFile('/v2/admin/users/export', {
        type: 'PROFESSIONALS',
        format: 'XLSX',
        ...RANGE,
      });
      expect(headers.get('content-type')).toBe(
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      );
      const { rows: truth } = await world.db.query<{
        id: string;
        name: string;
        case_price_cents: number | null;
      }>(
        `SELECT id, name, case_price_cents FROM users WHERE role = 'PROFESSIONAL'
          AND created_at >= ('2023-01-01'::timestamp AT TIME ZONE 'Europe/Lisbon') ORDER BY created_at, id`,
      );
      const [header, ...rows] = await readXlsxWithLibreOffice(bytes);
      expect(rows.length).toBe(truth.length);
      expect(truth.some((t) => /[^\x20-\x7e]/.test(t.name))).toBe(true); // the seed's names carry accents
      truth.forEach((t, i) => {
        expect(rows[i]![0]).toBe(t.id);
        expect(rows[i]![header!.indexOf('Nome')]).toBe(t.name);
        expect(rows[i]![header!.indexOf('Preço do caso')]).toBe(
          t.case_price_cents === null ? '' : euros(t.case_price_cents, '.'),
        );
      });
    },
    180_000,
  );

  it('neutralises formulas in text cells, in CSV and XLSX', async () => {
    const id = await insertUser(world.db, { role: 'CUSTOMER', email: 'formula@example.pt' });
    await world.db.query(
      `UPDATE users SET name = '=HYPERLINK("http://evil")', full_name = '@SUM(1)', phone_number = '+351 912 345 678',
              phone_country_code = '+351', gender = 'female', email_verified = false, created_at = '2020-06-15T12:00:00Z' WHERE id = $1`,
      [id],
    );
    const { bytes } = await exportFile('/v2/admin/users/export', {
      type: 'CUSTOMERS',
      startDate: '2020-06-15',
      endDate: '2020-06-15',
    });
    const [header, row, more] = readCsv(bytes, ';');
    expect(more).toBeUndefined();
    const cell = (title: string) => row![header!.indexOf(title)];
    expect(cell('Nome')).toBe(`'=HYPERLINK("http://evil")`);
    expect(cell('Nome completo')).toBe(`'@SUM(1)`);
    // Issue 29: a phone number is kept from the formula reading by a tab (OWASP), not a visible quote;
    // role, status and gender are written in the export's language (pt-PT), the status agreeing with her.
    expect(cell('Telefone')).toBe('\t+351 912 345 678');
    expect(cell('Indicativo')).toBe('\t+351');
    expect([cell('Perfil'), cell('Estado'), cell('Género')]).toEqual([
      'Paciente',
      'Novo utilizador',
      'Feminino',
    ]);
    const xlsx = await exportFile('/v2/admin/users/export', {
      type: 'CUSTOMERS',
      format: 'XLSX',
      startDate: '2020-06-15',
      endDate: '2020-06-15',
    });
    const { strFromU8, unzipSync } = await import('fflate');
    const sheet = strFromU8(unzipSync(xlsx.bytes)['xl/worksheets/sheet1.xml']!);
    expect(sheet).toContain(`<t>'=HYPERLINK("http://evil")</t>`);
    expect(sheet).not.toMatch(/<t>=HYPERLINK/);
    // A phone number is a string cell as written: no quote.
    expect(sheet).toContain('t="inlineStr"><is><t>+351 912 345 678</t>');
    expect(sheet).toContain('t="inlineStr"><is><t>+351</t>');
    expect(sheet).not.toContain(`'+351`);
    for (const word of ['Paciente', 'Novo utilizador', 'Feminino']) expect(sheet).toContain(`<t>${word}</t>`);
    expect(sheet).not.toMatch(/<t>(CUSTOMER|NEW_USER|female)<\/t>/);
  });

  it('refuses a missing start date, an end before the start, a range too long and an unknown type: no job', async () => {
    const before = await jobCount();
    const answer = async (path: string, body: unknown) => {
      const response = await world.post(path, body);
      return { status: response.status, body: await response.json() };
    };
    expect(await answer('/v2/admin/cases/export', { format: 'CSV' })).toEqual({
      status: 400,
      body: { code: 'VALIDATION_ERROR', errors: [{ field: 'startDate', code: 'required' }] },
    });
    expect(await answer('/v2/admin/cases/export', { format: 'CSV', startDate: '' })).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'startDate', code: 'required' }] },
    });
    expect(
      await answer('/v2/admin/cases/export', {
        format: 'CSV',
        startDate: '2026-03-10',
        endDate: '2026-03-01',
      }),
    ).toEqual({
      status: 400,
      body: { code: 'EXPORT_END_BEFORE_START', errors: [{ field: 'endDate', code: 'invalid' }] },
    });
    expect(
      await answer('/v2/admin/users/export', {
        type: 'USERS',
        format: 'CSV',
        startDate: '2019-01-01',
        endDate: '2026-03-15',
      }),
    ).toMatchObject({ status: 400, body: { code: 'EXPORT_RANGE_TOO_LONG' } });
    // Without an end date the range runs to today (2026-03-15 by the test's clock).
    expect(
      await answer('/v2/admin/users/export', { type: 'USERS', format: 'CSV', startDate: '2021-03-14' }),
    ).toMatchObject({
      status: 400,
      body: { code: 'EXPORT_RANGE_TOO_LONG', errors: [{ field: 'startDate' }] },
    });
    expect(
      await answer('/v2/admin/users/export', { type: 'CASES', format: 'CSV', startDate: '2026-01-01' }),
    ).toMatchObject({ status: 400, body: { code: 'EXPORT_TYPE_UNKNOWN', errors: [{ field: 'type' }] } });
    expect(
      await answer('/v2/admin/users/export', { type: 'ADMINS', format: 'CSV', startDate: '2026-01-01' }),
    ).toMatchObject({ status: 400, body: { code: 'EXPORT_TYPE_UNKNOWN' } });
    expect(await jobCount()).toBe(before);
  });

  it("answers 'No records found with the selected dates' for an empty range, and records no job", async () => {
    const before = await jobCount();
    const response = await world.post('/v2/admin/cases/export', {
      format: 'CSV',
      startDate: '2000-01-01',
      endDate: '2000-12-31',
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ code: 'NO_RECORDS_FOUND_WITH_DATES' });
    expect(await jobCount()).toBe(before);
  });

  it('refuses an XLSX export of more rows than a sheet holds before any job; CSV has no such limit', async () => {
    // The sheet's limit is 1,048,575 data rows: lowered on an instance here rather than seeding a million.
    const customers = (await peopleIn(`role = 'CUSTOMER'`, 'created_at', RANGE.startDate, RANGE.endDate))
      .length;
    const body = { type: 'CUSTOMERS', dateField: 'CREATED', ...RANGE, locale: 'en-GB' };
    const below = await world.startInstance({ xlsxMaxRows: customers - 1 });
    const exact = await world.startInstance({ xlsxMaxRows: customers });
    try {
      const before = await jobCount();
      const refused = await below.post('/v2/admin/users/export', { ...body, format: 'XLSX' });
      expect(refused.status).toBe(422);
      expect(await refused.json()).toMatchObject({
        code: 'EXPORT_XLSX_TOO_MANY_ROWS',
        errors: [{ field: 'format' }],
      });
      expect(await jobCount()).toBe(before);
      expect((await below.post('/v2/admin/users/export', { ...body, format: 'CSV' })).status).toBe(202);
      expect((await exact.post('/v2/admin/users/export', { ...body, format: 'XLSX' })).status).toBe(202);
      expect(await jobCount()).toBe(before + 2);
      const queued = await world.db.query<{ id: string }>(
        `SELECT id FROM export_jobs WHERE status = 'queued'`,
      );
      for (const { id } of queued.rows) await world.post(`/v2/admin/exports/${id}/cancel`);
    } finally {
      await below.stop();
      await exact.stop();
    }
  });

  it('cancels a queued job (never run) and a running one (stopped at its heartbeat, no file)', async () => {
    const queued = await start('/v2/admin/cases/export', RANGE);
    const cancelled = await world.post(`/v2/admin/exports/${queued.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toMatchObject({ status: 'cancelled' });
    expect(await world.runner.runNext()).toBe(false);

    const running = await start('/v2/admin/cases/export', RANGE);
    const claimed = await world.runner.claim();
    expect(claimed?.id).toBe(running.id);
    expect((await job(running.id)).status).toBe('running');
    expect((await world.post(`/v2/admin/exports/${running.id}/cancel`)).status).toBe(200);
    await world.runner.run(claimed!);
    expect(await job(running.id)).toMatchObject({ status: 'cancelled' });
    expect(readdirSync(join(world.dataDir, 'exports')).filter((f) => f.startsWith(running.id))).toEqual([]);
    expect((await world.get(`/v2/admin/exports/${running.id}/download`)).status).toBe(409);
    // Finished jobs cannot be cancelled.
    expect((await world.post(`/v2/admin/exports/${running.id}/cancel`)).status).toBe(409);
    const audit = await world.db.query<{ action: string }>(
      `SELECT action FROM audit_log WHERE entity_type = 'export' AND entity_id = $1 ORDER BY id`,
      [running.id],
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['export.start', 'export.cancel']);
  });

  it('marks a job whose instance died (lease expired) failed with a reason, never running forever', async () => {
    const queued = await start('/v2/admin/cases/export', RANGE);
    const dead = world.newRunner('instance-dead');
    expect((await dead.claim())?.id).toBe(queued.id);
    const other = world.newRunner('instance-b');
    expect(await other.recoverAbandoned()).toBe(0); // the lease still holds
    expect((await job(queued.id)).status).toBe('running');
    world.clock.current = new Date(world.now().getTime() + 31_000);
    try {
      expect(await other.recoverAbandoned()).toBe(1);
      expect(await job(queued.id)).toMatchObject({ status: 'failed', errorReason: 'INSTANCE_STOPPED' });
      // The dead instance coming back cannot finish it either.
      await dead.run(
        (await world.db.query(`SELECT * FROM export_jobs WHERE id = $1`, [queued.id])).rows[0] as never,
      );
      expect(await job(queued.id)).toMatchObject({ status: 'failed', errorReason: 'INSTANCE_STOPPED' });
    } finally {
      world.clock.current = new Date(world.clock.current.getTime() - 31_000);
    }
  });

  it('two runners claiming at once never take the same job', async () => {
    await world.db.query(`UPDATE export_jobs SET status = 'cancelled' WHERE status = 'queued'`);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++)
      ids.push((await start('/v2/admin/share-link-occurrences', { startDate: '2026-03-01' })).id);
    const a = world.newRunner('instance-a2');
    const b = world.newRunner('instance-b2');
    const claimAll = async (runner: typeof a) => {
      const mine: string[] = [];
      for (let job = await runner.claim(); job; job = await runner.claim()) mine.push(job.id);
      return mine;
    };
    const [byA, byB] = await Promise.all([claimAll(a), claimAll(b)]);
    expect([...byA, ...byB].sort()).toEqual([...ids].sort());
    const { rows } = await world.db.query<{ runner_id: string; id: string }>(
      `SELECT id, runner_id FROM export_jobs WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    for (const row of rows) expect(row.runner_id).toBe(byA.includes(row.id) ? 'instance-a2' : 'instance-b2');
    await world.db.query(
      `UPDATE export_jobs SET status = 'cancelled', runner_id = NULL, lease_expires_at = NULL
                           WHERE id = ANY($1::uuid[])`,
      [ids],
    );
  });

  const fileRefOf = async (id: string) =>
    (
      await world.db.query<{ file_ref: string | null }>('SELECT file_ref FROM export_jobs WHERE id = $1', [
        id,
      ])
    ).rows[0]!.file_ref;

  it('removes the file after 7 days (expired, 410) and the row 7 days later, keeping content another export shares', async () => {
    const start = world.now();
    const { job: done, bytes } = await exportFile('/v2/admin/cases/export', RANGE);
    const ref = (await fileRefOf(done.id))!;
    expect(ref).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(await world.storage.has(ref)).toBe(true);
    try {
      // The same export a day later: identical bytes, stored once, referenced twice.
      world.clock.current = new Date(start.getTime() + 86_400_000);
      const { job: again } = await exportFile('/v2/admin/cases/export', RANGE);
      expect(await fileRefOf(again.id)).toBe(ref);

      world.clock.current = new Date(start.getTime() + 7 * 86_400_000 - 1000);
      await world.runner.sweepExpired();
      expect((await job(done.id)).status).toBe('done');
      world.clock.current = new Date(start.getTime() + 7 * 86_400_000);
      await world.runner.sweepExpired();
      expect(await job(done.id)).toMatchObject({ status: 'expired' });
      expect((await world.get(`/v2/admin/exports/${done.id}/download`)).status).toBe(410);
      expect(await world.storage.has(ref)).toBe(true);
      const shared = await world.get(`/v2/admin/exports/${again.id}/download`);
      expect(new Uint8Array(await shared.arrayBuffer())).toEqual(bytes);

      world.clock.current = new Date(start.getTime() + 8 * 86_400_000);
      await world.runner.sweepExpired();
      expect(await job(again.id)).toMatchObject({ status: 'expired' });
      expect(await world.storage.has(ref)).toBe(false);
      world.clock.current = new Date(start.getTime() + 15 * 86_400_000);
      await world.runner.sweepExpired();
      expect((await world.get(`/v2/admin/exports/${done.id}`)).status).toBe(404);
    } finally {
      world.clock.current = start;
    }
  });

  it('keeps the content of an expired export while a stored file has the same bytes', async () => {
    const start = world.now();
    const { job: done, bytes } = await exportFile('/v2/admin/users/export', {
      type: 'CUSTOMERS',
      dateField: 'LAST_ACTIVE',
      ...RANGE,
    });
    const ref = (await fileRefOf(done.id))!;
    await recordStoredFile(
      world.db,
      { sha256: ref, sizeBytes: bytes.length },
      { originalName: 'customers.csv', contentType: 'text/csv' },
    );
    try {
      world.clock.current = new Date(start.getTime() + 7 * 86_400_000);
      await world.runner.sweepExpired();
      expect(await job(done.id)).toMatchObject({ status: 'expired' });
      expect(await world.storage.has(ref)).toBe(true);
    } finally {
      world.clock.current = start;
    }
  });

  it('stores a finished file again when a sweep deleted the identical content before the job was recorded', async () => {
    const id = '00000000-0000-4000-8000-00000000e173';
    const file = await createExportFile(world.dataDir, world.storage, id, 'CSV');
    const bytes = new TextEncoder().encode(`only this test writes ${id}\n`);
    await file.write(bytes);
    const { ref } = await file.finish();
    await world.storage.delete(ref);
    await file.ensureStored();
    expect(new Uint8Array(await new Response(world.storage.get(ref)).arrayBuffer())).toEqual(bytes);
    await file.abort();
    expect(readdirSync(join(world.dataDir, 'exports')).filter((f) => f.startsWith(id))).toEqual([]);
    await world.storage.delete(ref);
  });

  // Defined on PostgreSQL only (a skipped test fails CI's report): PGlite has no second instance.
  if (kind.name === 'postgres')
    it('serves an export that one instance wrote through another sharing the PostgreSQL storage', async () => {
      const { job: done, bytes } = await exportFile('/v2/admin/users/export', {
        type: 'PROFESSIONALS',
        dateField: 'CREATED',
        ...RANGE,
      });
      expect(world.storage.kind).toBe('postgres');
      const other = await world.startInstance();
      try {
        const response = await other.get(`/v2/admin/exports/${done.id}/download`);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-length')).toBe(String(bytes.length));
        expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
      } finally {
        await other.stop();
      }
    });

  it('lists your exports newest first in keyset pages, audits each download, hides them from other admins', async () => {
    for (let i = 0; i < 3; i++) {
      const queued = await start('/v2/admin/share-link-occurrences', { startDate: '2026-03-01' });
      expect((await world.post(`/v2/admin/exports/${queued.id}/cancel`)).status).toBe(200);
    }
    const first = await world.get('/v2/admin/exports?limit=2');
    const page = (await first.json()) as { items: Job[]; nextCursor: string; total: number };
    expect(page.items).toHaveLength(2);
    const second = (await (
      await world.get(`/v2/admin/exports?limit=2&cursor=${page.nextCursor}`)
    ).json()) as {
      items: Job[];
    };
    const all = await world.db.query<{ id: string }>(
      `SELECT id FROM export_jobs WHERE requested_by = $1 ORDER BY created_at DESC, id DESC LIMIT 4`,
      [world.adminId],
    );
    expect([...page.items, ...second.items].map((j) => j.id)).toEqual(all.rows.map((r) => r.id));
    expect(page.total).toBe(await count(world.db, 'export_jobs WHERE requested_by = $1', [world.adminId]));

    const downloads = await count(world.db, `audit_log WHERE action = 'export.download'`);
    expect(downloads).toBeGreaterThan(0);
    const { job: done } = await exportFile('/v2/admin/cases/export', RANGE);
    expect(
      await count(world.db, `audit_log WHERE action = 'export.download' AND entity_id = $1`, [done.id]),
    ).toBe(1);

    const otherAdmin = await insertUser(world.db, { email: 'other-admin@example.pt', admin: true });
    const otherToken = await issueToken(world.db, otherAdmin);
    expect((await world.get(`/v2/admin/exports/${done.id}`, otherToken)).status).toBe(404);
    expect((await world.get(`/v2/admin/exports/${done.id}/download`, otherToken)).status).toBe(404);
    expect(
      ((await (await world.get('/v2/admin/exports', otherToken)).json()) as { total: number }).total,
    ).toBe(0);
  });

  // Issue 29 point 7: the home card "failed exports" opens this list; it holds the caller's failed jobs only.
  it('lists only your failed exports, of every type, with status=failed; refuses an unknown status', async () => {
    const otherAdmin = await insertUser(world.db, { email: 'failed-exports-admin@example.pt', admin: true });
    await world.db.query(
      `INSERT INTO export_jobs (requested_by, type, filters, format, locale, status, estimated_total,
                               error_reason, created_at, finished_at, expires_at)
       SELECT s.admin, s.type, '{"dateField": "CREATED", "startDate": "2026-01-01", "endDate": null}', 'CSV', 'pt-PT', s.status, 10, s.reason, now(), now(), now() + interval '7 days'
         FROM (VALUES ($1::uuid, 'USERS', 'failed', 'INSTANCE_STOPPED'), ($1::uuid, 'STATS', 'failed', 'XLSX_TOO_MANY_ROWS'),
                      ($1::uuid, 'CASES', 'cancelled', NULL), ($2::uuid, 'CASES', 'failed', 'INSTANCE_STOPPED'))
              s (admin, type, status, reason)`,
      [world.adminId, otherAdmin],
    );
    const mine = await world.db.query<{ id: string; type: string }>(
      `SELECT id, type FROM export_jobs WHERE requested_by = $1 AND status = 'failed' ORDER BY created_at DESC, id DESC`,
      [world.adminId],
    );
    expect(new Set(mine.rows.map((r) => r.type)).size).toBeGreaterThan(1);
    const response = await world.get('/v2/admin/exports?status=failed&limit=100');
    expect(response.status).toBe(200);
    const page = (await response.json()) as { items: Job[]; total: number };
    expect(page.total).toBe(mine.rows.length);
    expect(page.items.map((j) => j.id)).toEqual(mine.rows.map((r) => r.id));
    expect(page.items.every((j) => j.status === 'failed')).toBe(true);
    // With a type too, both filters hold.
    const stats = (await (await world.get('/v2/admin/exports?status=failed&type=STATS')).json()) as {
      items: Job[];
      total: number;
    };
    expect(stats.total).toBe(mine.rows.filter((r) => r.type === 'STATS').length);
    expect(stats.items.every((j) => j.type === 'STATS' && j.status === 'failed')).toBe(true);

    const before = await count(world.db, 'export_jobs');
    const refused = await world.get('/v2/admin/exports?status=broken');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'VALIDATION_ERROR', errors: [{ field: 'status' }] });
    expect(await count(world.db, 'export_jobs')).toBe(before);
  });
});
