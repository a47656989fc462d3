import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userListQuerySchema } from '../../contract/users';
import type { Database } from '../../server/db/client';
import {
  CURSOR_VERSION,
  decodeCursor,
  encodeCursor,
  type KeysetQuery,
  keysetBatches,
  SqlParams,
} from '../../server/db/list';
import { Refusal } from '../../server/platform/refusal';
import { searchUsers, streamUsers } from '../../server/users/search';
import { insertUser } from '../api/harness';
import { testDatabaseKinds } from '../support/databases';

const UUID = '00000000-0000-4000-8000-000000000001';
const forge = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function refusalCode(work: () => unknown): string | null {
  try {
    work();
    return null;
  } catch (error) {
    return error instanceof Refusal ? error.code : `not a refusal: ${String(error)}`;
  }
}

describe('the keyset cursor codec', () => {
  const bound = { sort: 'created', order: 'desc' };

  it('round-trips a position bound to its sort and order', () => {
    const cursor = encodeCursor(bound, { key: '2026-01-01 10:00:00+00', id: UUID });
    expect(decodeCursor(cursor, bound, 'timestamptz')).toEqual({ key: '2026-01-01 10:00:00+00', id: UUID });
  });

  it.each([
    [
      'another sort',
      () => decodeCursor(encodeCursor({ ...bound, sort: 'name' }, { key: 'a', id: UUID }), bound, 'text'),
    ],
    [
      'a stale version',
      () => decodeCursor(forge({ v: CURSOR_VERSION - 1, ...bound, key: 'a', id: UUID }), bound, 'text'),
    ],
    ['no version', () => decodeCursor(forge({ ...bound, key: 'a', id: UUID }), bound, 'text')],
    [
      'an uncastable key',
      () => decodeCursor(forge({ v: CURSOR_VERSION, ...bound, key: 'x', id: UUID }), bound, 'int'),
    ],
    [
      'a NUL in a text key',
      () => decodeCursor(forge({ v: CURSOR_VERSION, ...bound, key: 'a\u0000', id: UUID }), bound, 'text'),
    ],
    [
      'a year out of range',
      () =>
        decodeCursor(
          forge({ v: CURSOR_VERSION, ...bound, key: '0000-01-01', id: UUID }),
          bound,
          'timestamptz',
        ),
    ],
    [
      'an id that is not a uuid',
      () => decodeCursor(forge({ v: CURSOR_VERSION, ...bound, key: 'a', id: 'x' }), bound, 'text'),
    ],
    ['not base64 JSON', () => decodeCursor('not a cursor!', bound, 'text')],
  ])('refuses %s with INVALID_CURSOR (a 400, never a 500)', (_name, work) => {
    expect(refusalCode(work)).toBe('INVALID_CURSOR');
  });
});

describe.each(testDatabaseKinds())('keyset batches on $name', (kind) => {
  let db: Database;

  beforeAll(async () => {
    db = await kind.open();
    // Ties on created_at, so the id tie-breaker is exercised across batch boundaries.
    for (let i = 0; i < 23; i++) {
      const id = await insertUser(db, { email: `stream${String(i).padStart(2, '0')}@demo.pt` });
      await db.query(
        `UPDATE users SET created_at = '2026-01-01T00:00:00Z'::timestamptz + ($2 || ' hours')::interval WHERE id = $1`,
        [id, String(i % 5)],
      );
    }
  });
  afterAll(() => db.close());

  it('streams the same rows in the same order as one ordered query, batch by batch', async () => {
    const query: KeysetQuery = {
      select: 'u.id, u.email',
      from: 'FROM users u',
      where: [],
      params: new SqlParams(),
      sort: { sql: 'u.created_at', type: 'timestamptz' },
      id: 'u.id',
      order: 'desc',
    };
    const batches: string[][] = [];
    for await (const rows of keysetBatches<{ id: string }>(db, query, 4))
      batches.push(rows.map((row) => row.id));
    const { rows } = await db.query<{ id: string }>('SELECT id FROM users ORDER BY created_at DESC, id DESC');
    expect(batches.flat()).toEqual(rows.map((row) => row.id));
    expect(batches.map((batch) => batch.length)).toEqual([4, 4, 4, 4, 4, 3]);
  });

  it('streams users with the filters and order of the list, as its pages would', async () => {
    for (const sort of ['created', 'email', 'name'] as const) {
      const query = userListQuerySchema.parse({ q: 'stream', sort, limit: '5' });
      const streamed: string[] = [];
      for await (const batch of streamUsers(db, query, 7)) streamed.push(...batch.map((user) => user.id));
      const paged: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await searchUsers(
          db,
          userListQuerySchema.parse({ q: 'stream', sort, limit: '5', ...(cursor ? { cursor } : {}) }),
        );
        paged.push(...page.items.map((user) => user.id));
        cursor = page.nextCursor;
      } while (cursor);
      expect(streamed).toHaveLength(23);
      expect(streamed).toEqual(paged);
    }
  });
});
