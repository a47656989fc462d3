import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/client';
import { testDatabaseKinds } from '../support/databases';
import { bearer, insertUser, issueToken, type RunningApi, startApi } from './harness';

// `users.interest_area_names` (migration 0027, decision 0104), which the exports read instead of joining
// a doctor's interest areas per row, is kept by triggers. After every kind of write to the links and the
// areas — inserts of one and of many rows, an update of a link, deletes, a deleted area (through the
// API: a cascade), a renamed area, a deleted doctor, a truncate — it must equal the names computed
// from the tables, for every user.

describe.each(testDatabaseKinds())('doctors’ interest area names kept by triggers on $name', (kind) => {
  let db: Database;
  let api: RunningApi;
  let token: string;
  const doctors: string[] = [];
  const areas: Record<string, string> = {};

  /** Every user whose stored names differ from the ones the tables give (none when the triggers hold). */
  const drift = async () =>
    (
      await db.query<{ id: string; stored: string | null; truth: string | null }>(
        `SELECT * FROM (
           SELECT u.id, u.interest_area_names AS stored,
                  (SELECT string_agg(a.name, ', ' ORDER BY a.name) FROM professional_interest_areas p
                     JOIN interest_areas a ON a.id = p.area_id WHERE p.professional_id = u.id) AS truth
             FROM users u) t
          WHERE stored IS DISTINCT FROM truth`,
      )
    ).rows;
  const namesOf = async (id: string) =>
    (
      await db.query<{ names: string | null }>(
        'SELECT interest_area_names AS names FROM users WHERE id = $1',
        [id],
      )
    ).rows[0]!.names;
  const link = (doctor: string, area: string) =>
    db.query('INSERT INTO professional_interest_areas (professional_id, area_id) VALUES ($1, $2)', [
      doctor,
      areas[area],
    ]);

  beforeAll(async () => {
    db = await kind.open();
    api = await startApi(db);
    token = await issueToken(db, await insertUser(db, { email: 'admin@names.test', admin: true }));
    for (let i = 0; i < 4; i++)
      doctors.push(await insertUser(db, { email: `doctor${i}@names.test`, role: 'PROFESSIONAL' }));
    for (const name of ['Pediatria', 'Cardiologia', 'Ortopedia & Trauma', 'Dermatología 😀']) {
      const { rows } = await db.query<{ id: string }>(
        'INSERT INTO interest_areas (name) VALUES ($1) RETURNING id',
        [name],
      );
      areas[name] = rows[0]!.id;
    }
  });
  afterAll(async () => {
    await api.stop();
    await db.close();
  });

  it('follows inserts, updates, deletes, renames, cascades and truncates', async () => {
    const [a, b, c, d] = doctors as [string, string, string, string];
    expect(await namesOf(a)).toBeNull();

    await link(a, 'Pediatria');
    expect(await namesOf(a)).toBe('Pediatria');
    await link(a, 'Cardiologia');
    expect(await namesOf(a)).toBe('Cardiologia, Pediatria');

    // Many rows for several doctors in one statement.
    await db.query(
      `INSERT INTO professional_interest_areas (professional_id, area_id)
       SELECT p, a FROM unnest($1::uuid[]) p, unnest($2::uuid[]) a`,
      [
        [b, c, d],
        [areas['Ortopedia & Trauma'], areas['Dermatología 😀']],
      ],
    );
    expect(await namesOf(b)).toBe('Dermatología 😀, Ortopedia & Trauma');
    expect(await drift()).toEqual([]);

    // A link moved to another area, then one removed.
    await db.query(
      'UPDATE professional_interest_areas SET area_id = $1 WHERE professional_id = $2 AND area_id = $3',
      [areas.Pediatria, b, areas['Ortopedia & Trauma']],
    );
    expect(await namesOf(b)).toBe('Dermatología 😀, Pediatria');
    await db.query('DELETE FROM professional_interest_areas WHERE professional_id = $1 AND area_id = $2', [
      a,
      areas.Cardiologia,
    ]);
    expect(await namesOf(a)).toBe('Pediatria');
    expect(await drift()).toEqual([]);

    // A renamed area, in every doctor's list.
    await db.query('UPDATE interest_areas SET name = $1 WHERE id = $2', [
      'Urgência',
      areas['Dermatología 😀'],
    ]);
    expect(await namesOf(c)).toBe('Ortopedia & Trauma, Urgência');
    expect(await drift()).toEqual([]);

    // An area deleted through the API: its links go by cascade, and with them the name.
    const removed = await fetch(`${api.url}/v2/admin/interest-areas/${areas.Pediatria}`, {
      method: 'DELETE',
      headers: bearer(token),
    });
    expect(removed.status).toBe(204);
    expect(await namesOf(a)).toBeNull();
    expect(await namesOf(b)).toBe('Urgência');
    expect(await drift()).toEqual([]);

    // A deleted doctor's links cascade without touching anyone else.
    await db.query('DELETE FROM users WHERE id = $1', [d]);
    expect(await namesOf(c)).toBe('Ortopedia & Trauma, Urgência');
    expect(await drift()).toEqual([]);

    await db.query('TRUNCATE professional_interest_areas');
    expect(await namesOf(c)).toBeNull();
    expect(await drift()).toEqual([]);
  });
});
