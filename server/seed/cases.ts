import type { Queryable } from '../db/client';
import { type Cell, type Column, insertRows, iso } from './bulk';
import type { FilePools } from './files';
import { CASE_SUMMARIES, CUSTOMER_LINES, PROFESSIONAL_LINES, REVIEW_COMMENTS } from './portugal';
import { Rng } from './random';
import type { SeededUsers } from './users';

/** What a settlement is made from: a paid, closed single case or a subscription payment. */
export interface SettlementSource {
  kind: 'case' | 'subscription';
  id: string;
  professionalId: string;
  grossCents: number;
  paidAt: number;
  /** When it became settleable: the case closed, or the subscription was paid. */
  settledAt: number;
}

export interface SeededCases {
  cases: number;
  messages: number;
  sources: SettlementSource[];
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type CaseStatus =
  | 'CREATED'
  | 'FREE'
  | 'ACCEPTED'
  | 'WAITING_PAYMENT'
  | 'PAID'
  | 'CLOSED_BY_PROFESSIONAL'
  | 'CLOSED_REJECTED'
  | 'CLOSED_NOT_ANSWERED'
  | 'CLOSED_NOT_PAID'
  | 'CLOSED_LIFETIME'
  | 'CLOSED_BY_ADMIN'
  | 'CLOSED_EXPIRED';

// Weighted by position: most cases end well, every status appears in any seed of 30 cases or more.
const STATUS_PLAN: CaseStatus[] = [
  'CLOSED_BY_PROFESSIONAL',
  'CLOSED_LIFETIME',
  'CLOSED_BY_PROFESSIONAL',
  'PAID',
  'CREATED',
  'CLOSED_BY_PROFESSIONAL',
  'CLOSED_REJECTED',
  'CLOSED_LIFETIME',
  'FREE',
  'CLOSED_BY_PROFESSIONAL',
  'ACCEPTED',
  'CLOSED_NOT_ANSWERED',
  'CLOSED_BY_PROFESSIONAL',
  'WAITING_PAYMENT',
  'CLOSED_LIFETIME',
  'CLOSED_NOT_PAID',
  'CLOSED_BY_PROFESSIONAL',
  'CLOSED_BY_ADMIN',
  'CLOSED_LIFETIME',
  'CLOSED_EXPIRED',
  'CLOSED_BY_PROFESSIONAL',
  'PAID',
  'CLOSED_LIFETIME',
  'CLOSED_BY_PROFESSIONAL',
  'FREE',
  'CLOSED_BY_PROFESSIONAL',
  'CLOSED_LIFETIME',
  'CLOSED_BY_PROFESSIONAL',
  'CLOSED_LIFETIME',
  'CLOSED_BY_PROFESSIONAL',
];
const OPEN = new Set<CaseStatus>(['CREATED', 'FREE', 'ACCEPTED', 'WAITING_PAYMENT', 'PAID']);
const UNPAID = new Set<CaseStatus>([
  'CREATED',
  'ACCEPTED',
  'WAITING_PAYMENT',
  'CLOSED_REJECTED',
  'CLOSED_NOT_ANSWERED',
  'CLOSED_NOT_PAID',
  'CLOSED_EXPIRED',
]);
const SETTLEABLE = new Set<CaseStatus>(['CLOSED_BY_PROFESSIONAL', 'CLOSED_LIFETIME']);
/** The few message exchanges a case in each status plausibly has. */
const MESSAGE_RANGE: Record<CaseStatus, [number, number]> = {
  CREATED: [1, 1],
  CLOSED_NOT_ANSWERED: [1, 1],
  CLOSED_EXPIRED: [1, 1],
  CLOSED_REJECTED: [1, 2],
  ACCEPTED: [2, 3],
  WAITING_PAYMENT: [2, 3],
  CLOSED_NOT_PAID: [2, 3],
  FREE: [3, 8],
  PAID: [3, 8],
  CLOSED_BY_ADMIN: [3, 6],
  CLOSED_BY_PROFESSIONAL: [4, 12],
  CLOSED_LIFETIME: [4, 12],
};

/**
 * Three cases per customer for demo sizes, growing with √users beyond that: 1,000,000 users get
 * ~22,000 cases, enough for every list and chat to be real without hours of seeding.
 */
export function caseCount(users: number, activeCustomers: number): number {
  return Math.min(3 * activeCustomers, 2400 + Math.floor(Math.sqrt(users) * 20));
}

const CASE_COLUMNS: Column[] = [
  { name: 'id', type: 'uuid' },
  { name: 'customer_id', type: 'uuid' },
  { name: 'professional_id', type: 'uuid' },
  { name: 'status', type: 'text' },
  { name: 'type', type: 'text' },
  { name: 'subscription_payment_id', type: 'uuid' },
  { name: 'start_date', type: 'timestamptz' },
  { name: 'end_date', type: 'timestamptz' },
  { name: 'closed_at', type: 'timestamptz' },
  { name: 'price_cents', type: 'int' },
  { name: 'professional_summary', type: 'text' },
  { name: 'notification_status', type: 'smallint' },
  { name: 'total_messages', type: 'int' },
  { name: 'created_at', type: 'timestamptz' },
  { name: 'updated_at', type: 'timestamptz' },
];
const MESSAGE_COLUMNS: Column[] = [
  { name: 'id', type: 'uuid' },
  { name: 'case_id', type: 'uuid' },
  { name: 'sender_id', type: 'uuid' },
  { name: 'type', type: 'text' },
  { name: 'text', type: 'text' },
  { name: 'call_duration_seconds', type: 'int' },
  { name: 'voice_file_id', type: 'uuid' },
  { name: 'voice_duration_ms', type: 'int' },
  { name: 'created_at', type: 'timestamptz' },
];

export interface CaseSeedInput {
  db: Queryable;
  seed: number;
  now: number;
  users: SeededUsers;
  pools: FilePools;
}

export async function seedCases({ db, seed, now, users, pools }: CaseSeedInput): Promise<SeededCases> {
  const rng = new Rng(seed, 'cases');
  const count = caseCount(users.total, users.activeCustomerIds.length);
  const withCases = users.professionals.filter(
    (p) => p.status === 'PROFESSIONAL_VERIFIED' || p.status === 'DISABLED',
  );
  const caseRows: Cell[][] = [];
  const messageRows: Cell[][] = [];
  const attachmentRows: Cell[][] = [];
  const reviewRows: Cell[][] = [];
  const paymentRows: Cell[][] = [];
  const sources: SettlementSource[] = [];

  for (let i = 0; i < count; i++) {
    const status = STATUS_PLAN[i % STATUS_PLAN.length]!;
    const professional = withCases[rng.int(0, withCases.length - 1)]!;
    const customerId = users.activeCustomerIds[rng.int(0, users.activeCustomerIds.length - 1)]!;
    const subscription = status !== 'FREE' && !UNPAID.has(status) && rng.chance(0.25);
    const id = rng.uuid();
    // open cases are recent; closed ones spread over seven months so six months of settlements exist
    const createdAt = OPEN.has(status)
      ? now - rng.int(1, 90) * HOUR
      : now - rng.int(6, 215) * DAY - rng.int(0, DAY);
    const startedAt =
      UNPAID.has(status) && status !== 'ACCEPTED' && status !== 'WAITING_PAYMENT'
        ? null
        : createdAt + rng.int(1, 20) * HOUR;
    const closedAt = OPEN.has(status)
      ? null
      : status === 'CLOSED_LIFETIME'
        ? (startedAt ?? createdAt) + 120 * HOUR
        : Math.min(now - HOUR, (startedAt ?? createdAt) + rng.int(2, 96) * HOUR);
    const priceCents =
      status === 'FREE'
        ? 0
        : subscription
          ? professional.subscriptionPriceCents
          : professional.casePriceCents || 1500;
    let subscriptionPaymentId: string | null = null;
    if (subscription) {
      subscriptionPaymentId = rng.uuid();
      const paidAt = createdAt - rng.int(0, 10) * DAY;
      paymentRows.push([
        subscriptionPaymentId,
        customerId,
        professional.id,
        priceCents,
        iso(paidAt),
        iso(paidAt + 30 * DAY),
        iso(paidAt),
        `pi_${rng.uuid().replace(/-/g, '').slice(0, 24)}`,
      ]);
      if (paidAt <= now) {
        sources.push({
          kind: 'subscription',
          id: subscriptionPaymentId,
          professionalId: professional.id,
          grossCents: priceCents,
          paidAt,
          settledAt: paidAt,
        });
      }
    } else if (SETTLEABLE.has(status) && priceCents > 0 && startedAt !== null && closedAt !== null) {
      sources.push({
        kind: 'case',
        id,
        professionalId: professional.id,
        grossCents: priceCents,
        paidAt: startedAt,
        settledAt: closedAt,
      });
    }

    const [minMessages, maxMessages] = MESSAGE_RANGE[status];
    const messages = rng.int(minMessages, maxMessages);
    const until = closedAt ?? now;
    let at = createdAt;
    for (let m = 0; m < messages; m++) {
      at = Math.min(
        until,
        at + rng.int(2, Math.max(3, Math.floor((until - createdAt) / (messages + 1) / 60_000))) * 60_000,
      );
      const fromCustomer = m % 2 === 0;
      const senderId = fromCustomer ? customerId : professional.id;
      const messageId = rng.uuid();
      const roll = m === 0 ? 0 : rng.next();
      if (roll < 0.7) {
        messageRows.push([
          messageId,
          id,
          senderId,
          'TEXT',
          rng.pick(fromCustomer ? CUSTOMER_LINES : PROFESSIONAL_LINES),
          null,
          null,
          null,
          iso(at),
        ]);
        if (rng.chance(0.12))
          attachmentRows.push([rng.uuid(), messageId, rng.pick(pools.attachments), iso(at)]);
      } else if (roll < 0.85) {
        messageRows.push([messageId, id, senderId, 'CALL', null, rng.int(45, 1500), null, null, iso(at)]);
      } else {
        const voice = rng.pick(pools.voices);
        messageRows.push([messageId, id, senderId, 'VOICE', null, null, voice.id, voice.durationMs, iso(at)]);
      }
    }
    const summary = SETTLEABLE.has(status) || status === 'CLOSED_BY_ADMIN' ? rng.pick(CASE_SUMMARIES) : null;
    if (SETTLEABLE.has(status) && rng.chance(0.6)) {
      reviewRows.push([
        rng.uuid(),
        id,
        customerId,
        rng.pick([5, 5, 5, 4, 4, 3, 2, 1]),
        rng.pick(REVIEW_COMMENTS),
        iso(until + rng.int(1, 30) * HOUR),
      ]);
    }
    const notification = closedAt !== null ? 3 : status === 'WAITING_PAYMENT' ? 2 : messages > 1 ? 1 : 0;
    const endDate = closedAt ?? (startedAt === null ? null : startedAt + 5 * DAY);
    caseRows.push([
      id,
      customerId,
      professional.id,
      status,
      subscription ? 'SUBSCRIPTION' : 'SINGLE_CASE',
      subscriptionPaymentId,
      startedAt === null ? null : iso(startedAt),
      endDate === null ? null : iso(endDate),
      closedAt === null ? null : iso(closedAt),
      priceCents,
      summary,
      notification,
      messages,
      iso(createdAt),
      iso(Math.max(at, closedAt ?? at)),
    ]);
  }

  await insertRows(
    db,
    'subscription_payments',
    [
      { name: 'id', type: 'uuid' },
      { name: 'customer_id', type: 'uuid' },
      { name: 'professional_id', type: 'uuid' },
      { name: 'amount_cents', type: 'int' },
      { name: 'period_start', type: 'timestamptz' },
      { name: 'period_end', type: 'timestamptz' },
      { name: 'paid_at', type: 'timestamptz' },
      { name: 'provider_payment_id', type: 'text' },
    ],
    paymentRows,
  );
  await insertRows(db, 'cases', CASE_COLUMNS, caseRows);
  await insertRows(db, 'case_messages', MESSAGE_COLUMNS, messageRows);
  await insertRows(
    db,
    'case_message_attachments',
    [
      { name: 'id', type: 'uuid' },
      { name: 'message_id', type: 'uuid' },
      { name: 'file_id', type: 'uuid' },
      { name: 'created_at', type: 'timestamptz' },
    ],
    attachmentRows,
  );
  await insertRows(
    db,
    'case_reviews',
    [
      { name: 'id', type: 'uuid' },
      { name: 'case_id', type: 'uuid' },
      { name: 'customer_id', type: 'uuid' },
      { name: 'rating', type: 'smallint' },
      { name: 'comment', type: 'text' },
      { name: 'created_at', type: 'timestamptz' },
    ],
    reviewRows,
  );
  await seedShareLinkOccurrences(db, rng, now, users);
  return { cases: count, messages: messageRows.length, sources };
}

async function seedShareLinkOccurrences(
  db: Queryable,
  rng: Rng,
  now: number,
  users: SeededUsers,
): Promise<void> {
  const linked = users.professionals.filter((p) => p.shareLinkId !== null);
  const total = Math.min(linked.length * 4, 20_000);
  const rows: Cell[][] = [];
  for (let i = 0; i < total; i++) {
    const professional = linked[rng.int(0, linked.length - 1)]!;
    const kind = rng.pick(['VISIT', 'VISIT', 'VISIT', 'SIGNUP', 'CASE'] as const);
    const customerId =
      kind === 'VISIT' ? null : users.activeCustomerIds[rng.int(0, users.activeCustomerIds.length - 1)]!;
    rows.push([
      rng.uuid(),
      professional.id,
      professional.shareLinkId,
      kind,
      customerId,
      iso(now - rng.int(1, 180 * 24) * HOUR),
    ]);
  }
  await insertRows(
    db,
    'share_link_occurrences',
    [
      { name: 'id', type: 'uuid' },
      { name: 'professional_id', type: 'uuid' },
      { name: 'share_link_id', type: 'text' },
      { name: 'kind', type: 'text' },
      { name: 'customer_id', type: 'uuid' },
      { name: 'occurred_at', type: 'timestamptz' },
    ],
    rows,
  );
}
