import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userListQuerySchema } from '../../contract/users';
import type { Database } from '../../server/db/client';
import { searchUsers } from '../../server/users/search';
import { testDatabaseKinds } from '../support/databases';
import { recordUnhandledRejections } from '../support/unhandled-rejections';

/**
 * Whatever validation lets through, a failing statement must reach the caller as one rejection: the
 * page query once started inside `Promise.all([...])` after an `await` that threw, so its own failure
 * had no handler and Node ended the process.
 */
describe.each(testDatabaseKinds())('users search when a statement fails, on $name', (kind) => {
  let db: Database;
  const rejections = recordUnhandledRejections();

  beforeAll(async () => {
    db = await kind.open();
  });
  afterAll(async () => {
    rejections.stop();
    await db.close();
  });

  /** The planner's estimate fails; every other statement fails too, a little later. */
  const failing = (): Database => ({
    ...db,
    query: (text: string) =>
      new Promise((_resolve, reject) =>
        setTimeout(
          () => reject(new Error(`refused: ${text.slice(0, 20)}`)),
          text.startsWith('EXPLAIN') ? 5 : 20,
        ),
      ),
  });

  it.each([
    ['no search', {}],
    ['a word search', { q: 'joana' }],
    ['a name sort', { q: 'joana', sort: 'name' }],
    ['a digit search', { q: '912345678' }],
  ])('rejects once and leaves nothing unhandled with %s', async (_name, query) => {
    await expect(searchUsers(failing(), userListQuerySchema.parse(query))).rejects.toThrow(/refused/);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(rejections.reasons).toEqual([]);
  });
});
