import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../support/databases';
import { type CaseWorld, SEED_NOW, startCaseWorld } from './cases-support';

/** One audit row as the table holds it, read here without the server's SQL. */
interface Raw {
  id: string;
  actor_id: string | null;
  action: string;
  entity_type: string;
  entity_id: string;
  created_at: Date;
}

interface Item {
  id: string;
  at: string;
  actor: { id: string; name: string } | null;
  action: string;
  entityType: string;
  entityId: string;
  entityLabel: string | null;
  before: unknown;
  after: unknown;
}
interface AuditPage {
  items: Item[];
  nextCursor: string | null;
  total: number;
}

const lisbonDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' });

describe.each(testDatabaseKinds())('audit log API on $name', (kind) => {
  let world: CaseWorld;
  beforeAll(async () => {
    world = await startCaseWorld(kind);
    // Rows sharing one instant (a bulk release writes many at once): paging must break the tie by id.
    await world.db.query(
      `INSERT INTO audit_log (actor_id, action, entity_type, entity_id, before, after, created_at)
       SELECT NULL, 'settlement.funds-released', 'settlement', id::text, '{"status":"READY_TO_SETTLE"}',
              '{"status":"AVAILABLE"}', $1
         FROM settlements LIMIT 15`,
      [new Date(SEED_NOW.getTime() - 3_600_000)],
    );
    // One real action through the API, so its row is the server's own.
    const { rows } = await world.db.query<{ id: string }>(
      `SELECT id FROM users WHERE role = 'CUSTOMER' AND NOT disabled ORDER BY id LIMIT 1`,
    );
    const response = await fetch(`${world.url}/v2/admin/users/${rows[0]!.id}/disable`, {
      method: 'POST',
      headers: { authorization: `Bearer ${world.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ disabled: true }),
    });
    expect(response.status).toBe(200);
  }, 180_000);
  afterAll(async () => world?.stop());

  const raw = async () =>
    (
      await world.db.query<Raw>(
        'SELECT id::text AS id, actor_id, action, entity_type, entity_id, created_at FROM audit_log',
      )
    ).rows;

  /** Newest first, ties by the larger id first: written here, not taken from the server's SQL. */
  const newestFirst = (rows: Raw[]) =>
    [...rows]
      .sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || Number(BigInt(b.id) - BigInt(a.id)))
      .map((row) => row.id);

  const getJson = async <T>(path: string, status = 200): Promise<T> => {
    const response = await world.get(path);
    const body = await response.json();
    expect({ path, status: response.status }).toEqual({ path, status });
    return body as T;
  };

  const fetchAll = async (query: string, limit = 7) => {
    const items: Item[] = [];
    let cursor: string | null = null;
    let total = -1;
    do {
      const page: AuditPage = await getJson<AuditPage>(
        `/v2/admin/audit?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      if (total >= 0) expect(page.total).toBe(total);
      total = page.total;
      items.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    expect(items).toHaveLength(total);
    return items;
  };

  it('pages through every row once, newest first, ties broken by id', async () => {
    const all = await raw();
    expect(all.length).toBeGreaterThan(20);
    const items = await fetchAll('', 9);
    expect(items.map((item) => item.id)).toEqual(newestFirst(all));
  });

  it('applies every filter exactly, alone and together', async () => {
    const all = await raw();
    const disabled = all.find((row) => row.action === 'user.disable')!;
    const days = [...new Set(all.map((row) => lisbonDay.format(row.created_at)))].sort();
    const [fromDay, toDay] = [days[Math.floor(days.length / 4)]!, days[Math.floor(days.length / 2)]!];
    const inDays = (row: Raw) => {
      const day = lisbonDay.format(row.created_at);
      return day >= fromDay && day <= toDay;
    };
    const cases: [string, (row: Raw) => boolean][] = [
      [`actorId=${world.adminId}`, (row) => row.actor_id === world.adminId],
      ['action=user.disable', (row) => row.action === 'user.disable'],
      [
        'action=user.disable&action=professional.verify',
        (row) => row.action === 'user.disable' || row.action === 'professional.verify',
      ],
      ['entityType=settlement', (row) => row.entity_type === 'settlement'],
      [
        `entityType=user&entityId=${disabled.entity_id}`,
        (row) => row.entity_type === 'user' && row.entity_id === disabled.entity_id,
      ],
      [`from=${fromDay}`, (row) => lisbonDay.format(row.created_at) >= fromDay],
      [`to=${toDay}`, (row) => lisbonDay.format(row.created_at) <= toDay],
      [`from=${fromDay}&to=${toDay}`, inDays],
      [
        `actorId=${world.adminId}&action=professional.verify&from=${fromDay}&to=${toDay}`,
        (row) => row.actor_id === world.adminId && row.action === 'professional.verify' && inDays(row),
      ],
    ];
    for (const [query, keep] of cases) {
      const expected = all.filter(keep);
      // Filters that hold something and leave something out: neither side of the test is vacuous.
      expect({ query, some: expected.length > 0, notAll: expected.length < all.length }).toEqual({
        query,
        some: true,
        notAll: true,
      });
      const items = await fetchAll(query, 4);
      expect({ query, ids: items.map((item) => item.id) }).toEqual({ query, ids: newestFirst(expected) });
    }
  });

  it('answers who, what, on which entity with its name, and before → after', async () => {
    const { items } = await getJson<AuditPage>('/v2/admin/audit?action=user.disable&limit=200');
    const names = new Map(
      (await world.db.query<{ id: string; name: string }>('SELECT id::text AS id, name FROM users')).rows.map(
        (row) => [row.id, row.name],
      ),
    );
    expect(items.length).toBeGreaterThan(1);
    for (const item of items) {
      expect(item.actor).toEqual({ id: world.adminId, name: names.get(world.adminId) });
      expect(item.entityLabel).toBe(names.get(item.entityId));
      expect(item.before).toMatchObject({ disabled: false });
      expect(item.after).toMatchObject({ disabled: true });
    }
    const released = await getJson<AuditPage>('/v2/admin/audit?entityType=settlement&limit=1');
    expect(released.items[0]!.actor).toBeNull();
    expect(released.items[0]!.entityLabel).toBeNull();
  });

  it('refuses bad filters and forged cursors with 400, before any SQL', async () => {
    for (const query of [
      'action=User.Disable',
      'action=user',
      'entityType=User',
      `entityId=${world.adminId}`,
      'actorId=nobody',
      'from=2026-13-01',
      'from=2026-03-02&to=2026-03-01',
      'limit=0',
      'limit=201',
      'cursor=abc',
      `cursor=${Buffer.from(JSON.stringify({ v: 1, sort: 'at', order: 'desc', key: '2026-01-01 00:00:00+00', id: "1'; DROP TABLE audit_log; --" })).toString('base64url')}`,
      `cursor=${Buffer.from(JSON.stringify({ v: 1, sort: 'at', order: 'asc', key: '2026-01-01 00:00:00+00', id: '1' })).toString('base64url')}`,
    ])
      await getJson(`/v2/admin/audit?${query}`, 400);
  });
});
