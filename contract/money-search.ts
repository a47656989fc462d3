import { z } from 'zod';
import { SEPA_STATUSES } from '../domain/sepa-status';
import { MONEY_SEARCH_MAX } from './limits';
import { STATEMENT_LINE_STATUSES } from './statuses';

/**
 * The palette's searches of the money records (issue 29 point 10, decision 0131): read-only, a few
 * records per kind, each an exact identifier or a prefix of one. Finance answers
 * `GET /v2/admin/search/finance`, statements `GET /v2/admin/search/statements`.
 */

/** What is typed: trimmed, 2 to MONEY_SEARCH_MAX characters (one letter would match everything). */
export const moneySearchQuerySchema = z.object({
  q: z.string().trim().min(2).max(MONEY_SEARCH_MAX),
  /** Records per kind. */
  limit: z.coerce.number().int().min(1).max(10).default(5),
});
export type MoneySearchQuery = z.infer<typeof moneySearchQuerySchema>;

const cents = z.number().int();

export const financeSearchSchema = z.object({
  /** SEPA files whose MsgId starts with the text; the exact MsgId first. */
  sepaFiles: z.array(
    z.object({
      id: z.uuid(),
      msgId: z.string(),
      status: z.enum(SEPA_STATUSES),
      amountCents: cents,
      referenceMonth: z.string(),
    }),
  ),
  /** Transfers whose EndToEndId starts with the text, with the file that holds them. */
  transfers: z.array(
    z.object({
      id: z.uuid(),
      endToEndId: z.string(),
      sepaFileId: z.uuid(),
      msgId: z.string(),
      professionalName: z.string(),
      amountCents: cents,
    }),
  ),
  /** Doctors with settlements whose name has a word starting with the text. */
  doctors: z.array(
    z.object({
      professionalId: z.uuid(),
      name: z.string(),
      settlementCount: z.number().int(),
    }),
  ),
});
export type FinanceSearch = z.infer<typeof financeSearchSchema>;

export const statementsSearchSchema = z.object({
  /** Statement files whose name contains the text. */
  files: z.array(z.object({ id: z.uuid(), fileName: z.string(), importedAt: z.string() })),
  /** Lines of the amount typed (either direction), or whose counterparty starts with the text. */
  lines: z.array(
    z.object({
      id: z.uuid(),
      statementFileId: z.uuid(),
      fileName: z.string(),
      bankDate: z.string(),
      amountCents: cents,
      counterpartyName: z.string().nullable(),
      status: z.enum(STATEMENT_LINE_STATUSES),
    }),
  ),
});
export type StatementsSearch = z.infer<typeof statementsSearchSchema>;
