import { isIsoDate } from '../business-days';
import type { Pain001File } from '../sepa/read-pain001';
import type { ExpectedItem } from './match';

/** Every transaction of a pain.001 file as an expected outgoing SEPA item (id `MsgId/EndToEndId`). */
export function expectedFromPain001(file: Pain001File): ExpectedItem[] {
  return file.payments.flatMap((p) =>
    p.transactions
      .filter((t) => t.amountCents != null)
      .map((t) => ({
        id: `${file.messageId}/${t.endToEndId}`,
        type: 'sepa' as const,
        amountCents: t.amountCents!,
        direction: 'out' as const,
        date: isIsoDate(p.executionDate) ? p.executionDate : null,
        endToEndId: t.endToEndId,
        batchIds: [p.paymentInformationId, file.messageId],
        counterpartyName: t.creditorName,
        counterpartyIban: t.creditorIban,
      })),
  );
}

export interface ExpectedError {
  index: number;
  field: string;
  code: string;
}

const optionalString = (v: unknown) => v === undefined || v === null || typeof v === 'string';

/** Validates untrusted JSON (an array, or `{ items: [...] }`) into expected items. */
export function parseExpectedItems(input: unknown): { items: ExpectedItem[]; errors: ExpectedError[] } {
  const raw = Array.isArray(input) ? input : (input as { items?: unknown } | null)?.items;
  if (!Array.isArray(raw)) return { items: [], errors: [{ index: -1, field: 'items', code: 'NOT_A_LIST' }] };
  const items: ExpectedItem[] = [];
  const errors: ExpectedError[] = [];
  const ids = new Set<string>();
  raw.forEach((value, index) => {
    const v = (value ?? {}) as Record<string, unknown>;
    const err = (field: string, code: string) => errors.push({ index, field, code });
    const before = errors.length;
    if (typeof v.id !== 'string' || v.id === '') err('id', 'REQUIRED');
    else if (ids.has(v.id)) err('id', 'DUPLICATE');
    if (v.type !== 'sepa' && v.type !== 'payout' && v.type !== 'invoice') err('type', 'INVALID');
    if (!Number.isSafeInteger(v.amountCents) || (v.amountCents as number) <= 0)
      err('amountCents', 'INVALID_AMOUNT');
    if (v.direction !== undefined && v.direction !== 'in' && v.direction !== 'out')
      err('direction', 'INVALID');
    if (v.date != null && (typeof v.date !== 'string' || !isIsoDate(v.date))) err('date', 'INVALID_DATE');
    for (const f of ['endToEndId', 'reference', 'counterpartyName', 'counterpartyIban']) {
      if (!optionalString(v[f])) err(f, 'INVALID');
    }
    if (
      v.batchIds !== undefined &&
      !(Array.isArray(v.batchIds) && v.batchIds.every((b) => typeof b === 'string'))
    ) {
      err('batchIds', 'INVALID');
    }
    if (errors.length === before) {
      ids.add(v.id as string);
      items.push(v as unknown as ExpectedItem);
    }
  });
  return { items, errors };
}
