import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../support/databases';
import { type CaseWorld, startCaseWorld } from './cases-support';
import { bearer, insertUser, issueToken } from './harness';

interface Truth {
  id: string;
  customer_id: string;
  professional_id: string;
  names: string[];
  status: string;
  closed: boolean;
  type: string;
  start_date: Date | null;
  end_date: Date | null;
  price_cents: number;
  total_messages: number;
  created_at: Date;
}

interface Item {
  id: string;
  status: string;
  closed: boolean;
  type: string;
  startDate: string | null;
  endDate: string | null;
  priceCents: number;
  totalMessages: number;
  createdAt: string;
  customer: { id: string; name: string };
  professional: { id: string; name: string };
  review: { rating: number; createdAt: string } | null;
}

interface ListPage {
  items: Item[];
  nextCursor: string | null;
  total: number;
}

const lisbonDay = (date: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(date);

describe.each(testDatabaseKinds())('cases API on $name', (kind) => {
  let world: CaseWorld;
  beforeAll(async () => {
    world = await startCaseWorld(kind);
  }, 180_000);
  afterAll(async () => world?.stop());

  const truth = async () =>
    (
      await world.db.query<Truth>(
        `SELECT c.id, c.customer_id, c.professional_id, c.status, c.closed, c.type, c.start_date, c.end_date,
                c.price_cents, c.total_messages, c.created_at,
                ARRAY[cu.name, coalesce(cu.full_name, ''), pr.name, coalesce(pr.full_name, '')] AS names
           FROM cases c JOIN users cu ON cu.id = c.customer_id JOIN users pr ON pr.id = c.professional_id`,
      )
    ).rows;

  const getJson = async <T>(path: string, status = 200): Promise<T> => {
    const response = await world.get(path);
    const body = await response.json();
    expect({ path, status: response.status, body: response.status === status ? null : body }).toEqual({
      path,
      status,
      body: null,
    });
    return body as T;
  };

  /** Follows nextCursor to the end; checks that total is the same on every page. */
  const fetchAll = async (query: string, limit = 50) => {
    const items: Item[] = [];
    let cursor: string | null = null;
    let total = -1;
    do {
      const separator = query ? '&' : '';
      const page: ListPage = await getJson<ListPage>(
        `/v2/admin/cases?${query}${separator}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      if (total >= 0) expect(page.total).toBe(total);
      total = page.total;
      expect(page.items.length).toBeLessThanOrEqual(limit);
      items.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    expect(items).toHaveLength(total);
    return items;
  };

  describe('GET /v2/admin/cases', () => {
    it('lists every case, newest first by default, each with every case field', async () => {
      const all = await truth();
      const first = await getJson<ListPage>('/v2/admin/cases');
      expect(first.total).toBe(all.length);
      expect(first.items).toHaveLength(50);
      const newest = [...all].sort((a, b) => b.created_at.getTime() - a.created_at.getTime())[0]!;
      expect(first.items[0]!.createdAt).toBe(newest.created_at.toISOString());

      const { rows } = await world.db.query<{ id: string }>(
        'SELECT c.id FROM cases c JOIN case_reviews r ON r.case_id = c.id LIMIT 1',
      );
      const reviewed = await getJson<ListPage>(`/v2/admin/cases?q=${rows[0]!.id}`);
      const expected = (
        await world.db.query<Record<string, unknown>>(
          `SELECT c.*, cu.name AS customer_name, pr.name AS professional_name, r.rating, r.created_at AS reviewed_at
             FROM cases c JOIN users cu ON cu.id = c.customer_id JOIN users pr ON pr.id = c.professional_id
             JOIN case_reviews r ON r.case_id = c.id WHERE c.id = $1`,
          [rows[0]!.id],
        )
      ).rows[0]!;
      const iso = (value: unknown) => (value === null ? null : (value as Date).toISOString());
      expect(reviewed.items).toEqual([
        {
          id: expected.id,
          customer: { id: expected.customer_id, name: expected.customer_name },
          professional: { id: expected.professional_id, name: expected.professional_name },
          closed: expected.closed,
          status: expected.status,
          totalMessages: expected.total_messages,
          type: expected.type,
          startDate: iso(expected.start_date),
          endDate: iso(expected.end_date),
          priceCents: expected.price_cents,
          currency: 'EUR',
          professionalSummary: expected.professional_summary,
          createdAt: iso(expected.created_at),
          review: { rating: expected.rating, createdAt: iso(expected.reviewed_at) },
        },
      ]);
    });

    it('applies every filter exactly', async () => {
      const all = await truth();
      const byCount = (key: 'customer_id' | 'professional_id') => {
        const counts = new Map<string, number>();
        for (const c of all) counts.set(c[key], (counts.get(c[key]) ?? 0) + 1);
        return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
      };
      const professionalId = byCount('professional_id');
      const customerId = byCount('customer_id');
      const created = all.map((c) => c.created_at.getTime()).sort((a, b) => a - b);
      const lower = new Date(created[Math.floor(created.length / 4)]!);
      const upper = new Date(created[Math.floor((created.length * 3) / 4)]!);
      const starts = all.flatMap((c) => (c.start_date ? [c.start_date.getTime()] : [])).sort((a, b) => a - b);
      const startMid = new Date(starts[Math.floor(starts.length / 2)]!);
      const ends = all.flatMap((c) => (c.end_date ? [c.end_date.getTime()] : [])).sort((a, b) => a - b);
      const endMid = new Date(ends[Math.floor(ends.length / 2)]!);
      const day = lisbonDay(all[0]!.created_at);
      const nameFragment = all[0]!.names[0]!.split(' ').at(-1)!.slice(0, 4).toLowerCase();
      const idCase = all[1]!;

      const cases: [string, (c: Truth) => boolean][] = [
        ['status=PAID', (c) => c.status === 'PAID'],
        [
          'status=PAID&status=CLOSED_BY_ADMIN&status=FREE',
          (c) => ['PAID', 'CLOSED_BY_ADMIN', 'FREE'].includes(c.status),
        ],
        ['type=SUBSCRIPTION', (c) => c.type === 'SUBSCRIPTION'],
        ['type=SINGLE_CASE', (c) => c.type === 'SINGLE_CASE'],
        [`professionalId=${professionalId}`, (c) => c.professional_id === professionalId],
        [`customerId=${customerId}`, (c) => c.customer_id === customerId],
        ['closed=true', (c) => c.closed],
        ['closed=false', (c) => !c.closed],
        [
          `createdFrom=${lower.toISOString()}&createdTo=${upper.toISOString()}`,
          (c) => c.created_at >= lower && c.created_at <= upper,
        ],
        [`createdFrom=${day}&createdTo=${day}`, (c) => lisbonDay(c.created_at) === day],
        [`startFrom=${startMid.toISOString()}`, (c) => c.start_date !== null && c.start_date >= startMid],
        [`startTo=${startMid.toISOString()}`, (c) => c.start_date !== null && c.start_date <= startMid],
        [`endFrom=${endMid.toISOString()}`, (c) => c.end_date !== null && c.end_date >= endMid],
        [
          `endTo=${lisbonDay(endMid)}`,
          (c) => c.end_date !== null && lisbonDay(c.end_date) <= lisbonDay(endMid),
        ],
        ['priceMinCents=1000&priceMaxCents=2000', (c) => c.price_cents >= 1000 && c.price_cents <= 2000],
        ['priceMaxCents=0', (c) => c.price_cents === 0],
        [
          `q=${encodeURIComponent(nameFragment)}`,
          (c) => c.names.some((n) => n.toLowerCase().includes(nameFragment)),
        ],
        [`q=${idCase.id}`, (c) => c.id === idCase.id],
        [`q=${idCase.id.slice(0, 8).toUpperCase()}`, (c) => c.id.startsWith(idCase.id.slice(0, 8))],
        [
          `status=PAID&status=CLOSED_BY_PROFESSIONAL&type=SINGLE_CASE&priceMinCents=1500`,
          (c) =>
            ['PAID', 'CLOSED_BY_PROFESSIONAL'].includes(c.status) &&
            c.type === 'SINGLE_CASE' &&
            c.price_cents >= 1500,
        ],
      ];
      for (const [query, predicate] of cases) {
        const expected = all.filter(predicate).map((c) => c.id);
        expect({ query, matches: expected.length > 0 && expected.length < all.length }).toEqual({
          query,
          matches: true,
        });
        const items = await fetchAll(query, 40);
        expect({ query, ids: items.map((i) => i.id).sort() }).toEqual({ query, ids: expected.sort() });
      }
    });

    it('drops empty filters, as the specification does before a search', async () => {
      const all = await truth();
      const page = await getJson<ListPage>('/v2/admin/cases?status=&type=&q=&closed=&priceMinCents=&cursor=');
      expect(page.total).toBe(all.length);
    });

    it('sorts by every whitelisted key both ways, pages without gaps or repeats', async () => {
      const all = await truth();
      const value: Record<string, (i: Item) => number | null> = {
        createdAt: (i) => Date.parse(i.createdAt),
        startDate: (i) => (i.startDate ? Date.parse(i.startDate) : Number.NEGATIVE_INFINITY),
        endDate: (i) => (i.endDate ? Date.parse(i.endDate) : Number.NEGATIVE_INFINITY),
        priceCents: (i) => i.priceCents,
        totalMessages: (i) => i.totalMessages,
        status: () => null,
        customerName: () => null,
        professionalName: () => null,
      };
      const group: Record<string, (i: Item) => string> = {
        status: (i) => i.status,
        customerName: (i) => i.customer.name,
        professionalName: (i) => i.professional.name,
      };
      for (const [sort, read] of Object.entries(value))
        for (const order of ['asc', 'desc'] as const) {
          const paged = await fetchAll(`sort=${sort}&order=${order}`, 13);
          const whole = await fetchAll(`sort=${sort}&order=${order}`, 200);
          expect(paged.map((i) => i.id)).toEqual(whole.map((i) => i.id));
          expect(new Set(paged.map((i) => i.id)).size).toBe(all.length);
          const numbers = paged.map(read);
          if (numbers[0] !== null) {
            const sorted = [...(numbers as number[])].sort((a, b) => (order === 'asc' ? a - b : b - a));
            expect({ sort, order, numbers }).toEqual({ sort, order, numbers: sorted });
          } else {
            // text keys follow the database collation; equal keys must at least be contiguous
            const keys = paged.map(group[sort]!);
            const runs = keys.filter((k, i) => i === 0 || k !== keys[i - 1]);
            expect({ sort, order, contiguous: new Set(runs).size === runs.length }).toEqual({
              sort,
              order,
              contiguous: true,
            });
          }
        }
    });

    it('answers 400 with the offending fields for bad filters', async () => {
      const bad: [string, string][] = [
        ['status=NOPE', 'status.0'],
        ['status=PAID&status=NOPE', 'status.1'],
        ['type=MONTHLY', 'type'],
        ['professionalId=42', 'professionalId'],
        ['customerId=../../etc', 'customerId'],
        ['closed=maybe', 'closed'],
        ['createdFrom=2026-13-45', 'createdFrom'],
        ['endTo=yesterday', 'endTo'],
        ['priceMinCents=-1', 'priceMinCents'],
        ['priceMinCents=abc', 'priceMinCents'],
        ['priceMinCents=2000&priceMaxCents=1000', 'priceMaxCents'],
        ['sort=password_hash', 'sort'],
        ['order=sideways', 'order'],
        ['limit=0', 'limit'],
        ['limit=1000', 'limit'],
      ];
      for (const [query, field] of bad) {
        const body = await getJson<{ code: string; errors: { field: string }[] }>(
          `/v2/admin/cases?${query}`,
          400,
        );
        expect({ query, code: body.code, fields: body.errors.map((e) => e.field) }).toEqual({
          query,
          code: 'VALIDATION_ERROR',
          fields: [field],
        });
      }
    });

    it('answers 400 INVALID_CURSOR for a malformed cursor or one issued for another sort', async () => {
      const createdAtCursor = (await getJson<ListPage>('/v2/admin/cases?limit=1')).nextCursor!;
      for (const query of [
        'cursor=not-a-cursor',
        `sort=priceCents&cursor=${encodeURIComponent(createdAtCursor)}`,
      ])
        expect(await getJson(`/v2/admin/cases?${query}`, 400)).toEqual({
          code: 'INVALID_CURSOR',
          errors: [{ field: 'cursor', code: 'invalid' }],
        });
    });
  });

  describe('GET /v2/admin/case/{id}/messages', () => {
    interface Message {
      id: string;
      type: 'TEXT' | 'CALL' | 'VOICE';
      sender: { id: string; name: string; role: string; gender: string | null };
      createdAt: string;
      text: string | null;
      callDurationSeconds: number | null;
      voice: { durationSeconds: number; contentType: string; sizeBytes: number; url: string } | null;
      attachments: { id: string; name: string; contentType: string; sizeBytes: number; url: string }[];
    }
    interface MessagePage {
      case: Item;
      items: Message[];
      nextCursor: string | null;
      total: number;
    }

    it('pages a conversation oldest first with text, calls, voice and attachments as stored', async () => {
      // the case with the most kinds of message and at least one attachment
      const { rows } = await world.db.query<{ case_id: string }>(
        `SELECT m.case_id FROM case_messages m
          WHERE EXISTS (SELECT 1 FROM case_message_attachments a JOIN case_messages x ON x.id = a.message_id WHERE x.case_id = m.case_id)
          GROUP BY m.case_id ORDER BY count(DISTINCT m.type) DESC, count(*) DESC, m.case_id LIMIT 1`,
      );
      const caseId = rows[0]!.case_id;
      const stored = (
        await world.db.query<{
          id: string;
          type: Message['type'];
          sender_id: string;
          name: string;
          role: string;
          gender: string | null;
          created_at: Date;
          text: string | null;
          call_duration_seconds: number | null;
          voice_duration_ms: number | null;
          voice_type: string | null;
          voice_size: number | null;
        }>(
          `SELECT m.id, m.type, m.sender_id, u.name, u.role, u.gender, m.created_at, m.text, m.call_duration_seconds,
                  m.voice_duration_ms, f.content_type AS voice_type, f.size_bytes AS voice_size
             FROM case_messages m JOIN users u ON u.id = m.sender_id LEFT JOIN stored_files f ON f.id = m.voice_file_id
            WHERE m.case_id = $1 ORDER BY m.created_at, m.id`,
          [caseId],
        )
      ).rows;
      const attachments = (
        await world.db.query<{
          id: string;
          message_id: string;
          original_name: string;
          content_type: string;
          size_bytes: number;
        }>(
          `SELECT a.id, a.message_id, f.original_name, f.content_type, f.size_bytes
             FROM case_message_attachments a JOIN stored_files f ON f.id = a.file_id
             JOIN case_messages m ON m.id = a.message_id WHERE m.case_id = $1`,
          [caseId],
        )
      ).rows;
      expect(stored.length).toBeGreaterThan(3);

      const received: Message[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: MessagePage = await getJson<MessagePage>(
          `/v2/admin/case/${caseId}/messages?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        expect(page.case.id).toBe(caseId);
        expect(page.total).toBe(stored.length);
        received.push(...page.items);
        cursor = page.nextCursor;
        pages++;
      } while (cursor);
      expect(pages).toBe(Math.ceil(stored.length / 2));

      expect(received).toEqual(
        stored.map((m) => ({
          id: m.id,
          type: m.type,
          sender: { id: m.sender_id, name: m.name, role: m.role, gender: m.gender },
          createdAt: m.created_at.toISOString(),
          text: m.type === 'TEXT' ? m.text : null,
          callDurationSeconds: m.type === 'CALL' ? m.call_duration_seconds : null,
          voice:
            m.type === 'VOICE'
              ? {
                  durationSeconds: m.voice_duration_ms! / 1000,
                  contentType: m.voice_type,
                  sizeBytes: m.voice_size,
                  url: `/v2/admin/case/voice/${m.id}`,
                }
              : null,
          attachments: attachments
            .filter((a) => a.message_id === m.id)
            .map((a) => ({
              id: a.id,
              name: a.original_name,
              contentType: a.content_type,
              sizeBytes: a.size_bytes,
              url: `/v2/admin/case-message/attachments/download?id=${a.id}`,
            })),
        })),
      );
      expect(new Set(received.map((m) => m.type)).size).toBeGreaterThan(1);
    });

    it('answers 404 CASE_NOT_FOUND for an unknown case or a malformed id, 400 for a bad cursor', async () => {
      for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-case', '..%2F..%2Fusers'])
        expect(await getJson(`/v2/admin/case/${id}/messages`, 404)).toEqual({ code: 'CASE_NOT_FOUND' });
      const { rows } = await world.db.query<{ id: string }>('SELECT id FROM cases LIMIT 1');
      const body = await getJson<{ code: string }>(`/v2/admin/case/${rows[0]!.id}/messages?cursor=xyz`, 400);
      expect(body.code).toBe('INVALID_CURSOR');
    });
  });

  describe('POST /v2/admin/cases/{id}/close', () => {
    const statusOf = async (id: string) =>
      (await world.db.query<{ status: string }>('SELECT status FROM cases WHERE id = $1', [id])).rows[0]!
        .status;
    const audits = async (id: string) =>
      (
        await world.db.query<{
          actor_id: string;
          before: { status: string };
          after: { status: string; endDate: string };
        }>(
          `SELECT actor_id, before, after FROM audit_log WHERE entity_type = 'case' AND entity_id = $1 AND action = 'case.close'`,
          [id],
        )
      ).rows;

    it('closes a case in every open status as CLOSED_BY_ADMIN, with an audit record before → after', async () => {
      world.clock.current = new Date('2026-03-20T10:00:00Z');
      const { rows } = await world.db.query<{ id: string; status: string }>(
        `SELECT DISTINCT ON (status) id, status FROM cases WHERE NOT closed ORDER BY status, id`,
      );
      expect(rows.map((r) => r.status).sort()).toEqual([
        'ACCEPTED',
        'CREATED',
        'FREE',
        'PAID',
        'WAITING_PAYMENT',
      ]);
      for (const row of rows) {
        const response = await world.post(`/v2/admin/cases/${row.id}/close`);
        expect(response.status).toBe(200);
        const item = (await response.json()) as Item;
        expect(item).toMatchObject({
          id: row.id,
          status: 'CLOSED_BY_ADMIN',
          closed: true,
          endDate: '2026-03-20T10:00:00.000Z',
        });
        expect(await statusOf(row.id)).toBe('CLOSED_BY_ADMIN');
        expect(await audits(row.id)).toEqual([
          {
            actor_id: world.adminId,
            before: expect.objectContaining({ status: row.status, closed: false }),
            after: expect.objectContaining({
              status: 'CLOSED_BY_ADMIN',
              closed: true,
              endDate: '2026-03-20T10:00:00.000Z',
            }),
          },
        ]);
        const listed = await getJson<ListPage>(
          `/v2/admin/cases?q=${row.id}&closed=true&status=CLOSED_BY_ADMIN`,
        );
        expect(listed.items.map((i) => i.id)).toEqual([row.id]);
      }
      world.clock.current = null;
    });

    it('refuses to close a closed case with 409 CASE_ALREADY_CLOSED and changes nothing', async () => {
      const { rows } = await world.db.query<{ id: string; status: string; updated_at: Date }>(
        `SELECT DISTINCT ON (status) id, status, updated_at FROM cases WHERE closed ORDER BY status, id`,
      );
      expect(rows.length).toBeGreaterThanOrEqual(7);
      for (const row of rows) {
        const response = await world.post(`/v2/admin/cases/${row.id}/close`);
        expect({ status: response.status, body: await response.json() }).toEqual({
          status: 409,
          body: { code: 'CASE_ALREADY_CLOSED' },
        });
        expect(await statusOf(row.id)).toBe(row.status);
      }
    });

    it('answers 404 CASE_NOT_FOUND for an unknown or malformed case id', async () => {
      for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
        const response = await world.post(`/v2/admin/cases/${id}/close`);
        expect({ status: response.status, body: await response.json() }).toEqual({
          status: 404,
          body: { code: 'CASE_NOT_FOUND' },
        });
      }
    });

    it('lets exactly one of several concurrent closes win', async () => {
      const { rows } = await world.db.query<{ id: string }>(
        `INSERT INTO cases (customer_id, professional_id, status, type, price_cents)
         SELECT customer_id, professional_id, 'PAID', 'SINGLE_CASE', 1500 FROM cases LIMIT 1 RETURNING id`,
      );
      const id = rows[0]!.id;
      const responses = await Promise.all(
        Array.from({ length: 6 }, () => world.post(`/v2/admin/cases/${id}/close`)),
      );
      const statuses = responses.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 409, 409, 409, 409, 409]);
      expect(await audits(id)).toHaveLength(1);
    });

    it('never sets an end date before the start date', async () => {
      world.clock.current = new Date('2026-03-20T10:00:00Z');
      const { rows } = await world.db.query<{ id: string }>(
        `INSERT INTO cases (customer_id, professional_id, status, type, price_cents, start_date)
         SELECT customer_id, professional_id, 'ACCEPTED', 'SINGLE_CASE', 1500, '2026-03-21T00:00:00Z' FROM cases LIMIT 1 RETURNING id`,
      );
      const response = await world.post(`/v2/admin/cases/${rows[0]!.id}/close`);
      expect(response.status).toBe(200);
      expect(((await response.json()) as Item).endDate).toBe('2026-03-21T00:00:00.000Z');
      world.clock.current = null;
    });
  });

  describe('GET /v2/case/review', () => {
    const review = (caseId: string, token?: string) =>
      fetch(`${world.url}/v2/case/review?caseId=${caseId}`, { headers: token ? bearer(token) : {} });

    it("answers the customer's review to an administrator", async () => {
      const { rows } = await world.db.query<{
        case_id: string;
        rating: number;
        comment: string;
        created_at: Date;
      }>('SELECT case_id, rating, comment, created_at FROM case_reviews ORDER BY case_id LIMIT 1');
      const stored = rows[0]!;
      const response = await review(stored.case_id, world.adminToken);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        caseId: stored.case_id,
        rating: stored.rating,
        comment: stored.comment,
        createdAt: stored.created_at.toISOString(),
      });
    });

    it('answers 404 REVIEW_NOT_FOUND without a review, CASE_NOT_FOUND without a case, 400 without caseId', async () => {
      const { rows } = await world.db.query<{ id: string }>(
        'SELECT id FROM cases c WHERE NOT EXISTS (SELECT 1 FROM case_reviews r WHERE r.case_id = c.id) LIMIT 1',
      );
      const unreviewed = await review(rows[0]!.id, world.adminToken);
      expect({ status: unreviewed.status, body: await unreviewed.json() }).toEqual({
        status: 404,
        body: { code: 'REVIEW_NOT_FOUND' },
      });
      for (const id of ['00000000-0000-4000-8000-000000000000', 'x']) {
        const missing = await review(id, world.adminToken);
        expect({ status: missing.status, body: await missing.json() }).toEqual({
          status: 404,
          body: { code: 'CASE_NOT_FOUND' },
        });
      }
      const bare = await fetch(`${world.url}/v2/case/review`, { headers: bearer(world.adminToken) });
      expect(bare.status).toBe(400);
    });

    it('needs a session, and shows others only the reviews of their own cases', async () => {
      const { rows } = await world.db.query<{
        case_id: string;
        customer_id: string;
        professional_id: string;
      }>(
        'SELECT r.case_id, c.customer_id, c.professional_id FROM case_reviews r JOIN cases c ON c.id = r.case_id LIMIT 1',
      );
      const { case_id, customer_id, professional_id } = rows[0]!;
      expect((await review(case_id)).status).toBe(401);
      expect((await review(case_id, await issueToken(world.db, customer_id))).status).toBe(200);
      expect((await review(case_id, await issueToken(world.db, professional_id))).status).toBe(200);
      const stranger = await insertUser(world.db, { email: 'stranger@demo.pt', role: 'CUSTOMER' });
      const refused = await review(case_id, await issueToken(world.db, stranger));
      expect({ status: refused.status, body: await refused.json() }).toEqual({
        status: 404,
        body: { code: 'CASE_NOT_FOUND' },
      });
    });
  });
});
