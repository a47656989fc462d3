import { z } from 'zod';
import { INT4_MAX, INT4_MIN, MAX_YEAR, MIN_YEAR } from './bounds';
import { blankToUndefined, optionalFilter, pageSchema, repeatable, sortOrderSchema } from './common';
import { referenceMonthSchema } from './finance';
import { STATEMENT_IGNORABLE_STATUSES, STATEMENT_LINE_STATUSES } from './statuses';

/**
 * Matching and reconciliation of bank statement lines (issue 12, points 4–6): statement files, the
 * lines with their three amounts side by side, candidates with an explained score, and the actions
 * (accept, match, ignore, unmatch, note, bulk accept, undo), each answering the rows as they now are.
 * Paths under `/v2/admin/statements/`.
 */

const cents = z.number().int();
const isoDay = z.iso.date();
const person = z.object({ id: z.uuid(), name: z.string() });

export const STATEMENT_FORMATS = ['CSV', 'CAMT053', 'MT940'] as const;
export const STATEMENT_LINE_KINDS = ['transfer', 'return', 'fee', 'other'] as const;
export const STATEMENT_MATCH_METHODS = ['REFERENCE', 'AMOUNT_COUNTERPARTY_DATE', 'MANUAL'] as const;
export const COUNTERPART_KINDS = ['SEPA_FILE', 'SEPA_TRANSFER', 'PAYOUT', 'INVOICE'] as const;
export type CounterpartKind = (typeof COUNTERPART_KINDS)[number];
export const STATEMENT_ACTION_KINDS = [
  'ACCEPT',
  'MATCH',
  'IGNORE',
  'UNMATCH',
  'NOTE',
  'BULK_ACCEPT',
  'BULK_IGNORE',
  'UNDO',
] as const;
/** What a line's history row records (statement_line_history.action). */
export const STATEMENT_HISTORY_ACTIONS = [
  'IMPORTED',
  'MATCHED',
  'SUGGESTED',
  'UNMATCHED',
  'DISCREPANCY',
  'IGNORED',
  'NOTE',
] as const;

export const STATEMENT_LINES_PAGE = { default: 200, max: 1000 } as const;
export const STATEMENT_FILES_PAGE = { default: 50, max: 200 } as const;
/** The most lines one bulk accept — or bulk ignore (decision 0161) — takes (issue 12: "≤ 10,000"). */
export const STATEMENT_BULK_ACCEPT_MAX = 10_000;
export const STATEMENT_NOTE_MAX = 2000;

export const statementLineStatusSchema = z.enum(STATEMENT_LINE_STATUSES);
export const counterpartKindSchema = z.enum(COUNTERPART_KINDS);

const businessDay = isoDay.refine((day) => {
  const year = Number(day.slice(0, 4));
  return year >= MIN_YEAR && year <= MAX_YEAR;
}, 'year out of range');

const noteSchema = z
  .string()
  .trim()
  .min(1)
  .max(STATEMENT_NOTE_MAX)
  .refine((text) => !text.includes('\u0000'), 'NUL byte');

// ---------------------------------------------------------------------------------------------------
// Files

export const STATEMENT_CONTINUITIES = ['FIRST', 'CONTINUES', 'GAP', 'OVERLAP'] as const;

/**
 * One statement of a file (issue 27, docs/decisions/0121): one account's statement of one period, and how
 * it follows the account's previous statement (by period, then sequence): FIRST (none before),
 * CONTINUES (its opening balance is the previous closing one; without balances, it starts the day
 * after), GAP (`gapCents` = opening − previous closing, null without balances) or OVERLAP (their periods
 * overlap: the lines both hold were imported once).
 */
export const bankStatementSchema = z.object({
  id: z.uuid(),
  /** Null only for a statement imported before statements were stored, from a file that named no account. */
  accountIban: z.string().nullable(),
  currency: z.string().nullable(),
  /** The bank's statement id (camt Stmt/Id, MT940 :20:) and sequence number; null when the file gives none. */
  statementId: z.string().nullable(),
  sequence: z.string().nullable(),
  periodStart: isoDay,
  periodEnd: isoDay,
  openingBalanceCents: cents.nullable(),
  closingBalanceCents: cents.nullable(),
  /** opening + entries = closing as the file states them; null: the statement states no balances. */
  balanceConsistent: z.boolean().nullable(),
  /** Why it was imported although its balances do not add up. */
  mismatchNote: z.string().nullable(),
  entryCount: z.number().int(),
  lineCount: z.number().int(),
  duplicatesSkipped: z.number().int(),
  /** Pending entries read but not imported. */
  pendingSkipped: z.number().int(),
  continuity: z.enum(STATEMENT_CONTINUITIES),
  gapCents: cents.nullable(),
  /** The period of the account's previous statement (null when FIRST). */
  previousPeriodStart: isoDay.nullable(),
  previousPeriodEnd: isoDay.nullable(),
});
export type BankStatement = z.infer<typeof bankStatementSchema>;

export const statementFileRowSchema = z.object({
  id: z.uuid(),
  fileName: z.string(),
  format: z.enum(STATEMENT_FORMATS),
  accountIban: z.string().nullable(),
  openingBalanceCents: cents.nullable(),
  closingBalanceCents: cents.nullable(),
  /** opening + Σ lines = closing (null balances: not consistent, nothing to check against). */
  balanceConsistent: z.boolean(),
  lineCount: z.number().int(),
  /** Lines MATCHED or IGNORED. */
  doneCount: z.number().int(),
  importedAt: z.iso.datetime(),
  uploadedBy: person.nullable(),
  reconciledAt: z.iso.datetime().nullable(),
  reconciledBy: person.nullable(),
  /** Its statements in file order (none only for a file written without an import). */
  statements: z.array(bankStatementSchema),
  /** Pending entries of its statements, read but not imported. */
  pendingSkipped: z.number().int(),
});
export type StatementFileRow = z.infer<typeof statementFileRowSchema>;

export const statementFileListQuerySchema = z.object({
  limit: z.preprocess(
    blankToUndefined,
    z.coerce.number().int().min(1).max(STATEMENT_FILES_PAGE.max).default(STATEMENT_FILES_PAGE.default),
  ),
  cursor: optionalFilter(z.string().max(2000)),
});

export const statementFilePageSchema = pageSchema(statementFileRowSchema);

// ---------------------------------------------------------------------------------------------------
// Counterparts and candidates

/** A counterpart a line is linked to, with the part of its amount this line covers. */
export const counterpartSchema = z.object({
  kind: counterpartKindSchema,
  id: z.uuid(),
  /** MsgId, EndToEndId and doctor, payout id, invoice number. */
  label: z.string(),
  /** Signed as the bank books it: money leaving negative (SEPA, invoices), arriving positive (payouts). */
  amountCents: cents,
  date: isoDay.nullable(),
  counterpartyName: z.string().nullable(),
  /** The part of the counterpart's amount this line covers (signed like amountCents). */
  allocatedCents: cents,
  /** RETURN: this line is the bank returning the transfer, not paying it. */
  role: z.enum(['PAYMENT', 'RETURN']),
});
export type Counterpart = z.infer<typeof counterpartSchema>;

export const candidateSchema = z.object({
  kind: counterpartKindSchema,
  id: z.uuid(),
  label: z.string(),
  amountCents: cents,
  date: isoDay.nullable(),
  counterpartyName: z.string().nullable(),
  /** 0–1, higher is better: the matcher's ranking, explained by `reasons`. */
  score: z.number().min(0).max(1),
  reasons: z.object({
    amountExact: z.boolean(),
    /** Days between the bank date and the counterpart's date (0 when it has none). */
    dateDays: z.number().int(),
    reference: z.boolean(),
    /** 0–1: words of the expected name found in the line's counterparty, or an MB WAY phone's visible digits agreeing (decision 0160); 0.5: nothing to compare. */
    nameSimilarity: z.number().min(0).max(1),
    /** The line's counterparty text was matched by hand to the counterpart's party before (decision 0146). */
    learnedRule: z.boolean(),
    /** The rule's text, what the line prints ("CLINICA SORRISO", "MBWAY 964XXX072"); null without one (decision 0151). */
    learnedText: z.string().nullable(),
    /** The MB WAY phone the line prints agrees, in every digit the bank shows, with the customer's (decision 0160). */
    phone: z.boolean(),
    /** The line is booked when its rail books a payment of the counterpart's day (a SEPA credit the business day after; decision 0175). */
    railDay: z.boolean(),
    /** Another line of the file, from the same payer's account, pays the counterpart's party (decision 0177). */
    sameAccount: z.boolean(),
    /** The party has another open counterpart of this kind, amount and day: the first numbered is taken (decision 0177). */
    twin: z.boolean(),
  }),
});
export type Candidate = z.infer<typeof candidateSchema>;

export const candidatesSchema = z.object({ candidates: z.array(candidateSchema) });

// ---------------------------------------------------------------------------------------------------
// Lines

const amountAndDate = z.object({ amountCents: cents, date: isoDay.nullable() });

const rowsOfKind = z.object({ count: z.number().int(), netCents: cents });

/**
 * A matched payout imported with its rows, three ways (issue 31, decision 0156): what the provider paid
 * (gross − fees = net), its rows by kind, and the settlements its charges paid: how many an invoice
 * bills (and the invoices' sum) and how many none does (the missing invoices).
 */
export const payoutBreakdownSchema = z.object({
  grossCents: cents,
  feeCents: cents,
  netCents: cents,
  charges: rowsOfKind,
  refunds: rowsOfKind,
  disputes: rowsOfKind,
  invoicedSettlements: z.number().int(),
  invoicedCents: cents,
  settlementsWithoutInvoice: z.number().int(),
});
export type PayoutBreakdown = z.infer<typeof payoutBreakdownSchema>;

export const statementLineRowSchema = z.object({
  id: z.uuid(),
  statementFileId: z.uuid(),
  lineNumber: z.number().int(),
  bankAmountCents: cents,
  bankDate: isoDay,
  valueDate: isoDay.nullable(),
  transactionDate: isoDay.nullable(),
  description: z.string(),
  counterpartyName: z.string().nullable(),
  counterpartyIban: z.string().nullable(),
  kind: z.enum(STATEMENT_LINE_KINDS),
  /** ISO return reason (`bankReasons.<CODE>` in the console), for kind 'return'. */
  returnReason: z.string().nullable(),
  status: statementLineStatusSchema,
  matchMethod: z.enum(STATEMENT_MATCH_METHODS).nullable(),
  notes: z.string().nullable(),
  /** The payment provider's side: Σ of the payouts matched, their date. */
  provider: amountAndDate.nullable(),
  /** The matched payouts' rows three ways; null when none was imported with its rows (the seed's). */
  payoutBreakdown: payoutBreakdownSchema.nullable(),
  /** The invoicing provider's side: Σ of the invoices matched, their date. */
  invoicing: amountAndDate.nullable(),
  /** Our SEPA side: the file or transfers matched. */
  sepa: amountAndDate.extend({ label: z.string() }).nullable(),
  matches: z.array(counterpartSchema),
  suggestion: candidateSchema.nullable(),
  /** Counterparts of its amount near its date (up to 20); in answers of over 1,000 lines, 1 if suggested. */
  candidateCount: z.number().int(),
  /**
   * DISCREPANCY: bank lines minus counterparts of the match (the line, the counterparts it is linked
   * to and the other lines linked to them); 0 when MATCHED; null when not linked.
   */
  differenceCents: cents.nullable(),
  updatedAt: z.iso.datetime(),
});
export type StatementLineRow = z.infer<typeof statementLineRowSchema>;

export const STATEMENT_LINE_KIND_FILTERS = STATEMENT_LINE_KINDS;

/** A suggestion's score as a filter: 0–1, three decimals at most (a stored score's precision). */
const minScoreSchema = z.coerce
  .number()
  .min(0)
  .max(1)
  .refine((score) => Math.abs(Math.round(score * 1000) - score * 1000) < 1e-6, 'at most three decimals');

const searchText = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .refine((text) => !text.includes('\u0000'), 'NUL byte');

/** What of a line the table filters on and never changes (its file, kind, dates, amount, counterparty). */
const lineFactFilters = {
  statementFileId: optionalFilter(z.guid()),
  from: optionalFilter(businessDay),
  to: optionalFilter(businessDay),
  minCents: optionalFilter(z.coerce.number().int().min(INT4_MIN).max(INT4_MAX)),
  maxCents: optionalFilter(z.coerce.number().int().min(INT4_MIN).max(INT4_MAX)),
  kind: optionalFilter(z.enum(STATEMENT_LINE_KINDS)),
  /** The start of the counterparty's name (case ignored) or IBAN. */
  counterparty: optionalFilter(searchText),
  /**
   * Words the bank printed: the description or the counterparty's name contains it, case ignored
   * ("COMISSAO" finds the month's bank fees; decision 0161).
   */
  text: optionalFilter(searchText),
};

function checkRanges(
  query: { from?: string; to?: string; minCents?: number; maxCents?: number },
  context: z.RefinementCtx,
) {
  if (query.from && query.to && query.from > query.to)
    context.addIssue({ code: 'custom', path: ['to'], message: 'before from' });
  if (query.minCents !== undefined && query.maxCents !== undefined && query.minCents > query.maxCents)
    context.addIssue({ code: 'custom', path: ['maxCents'], message: 'below minCents' });
}

/**
 * The suggestions a "score ≥ x" filter selects: lines SUGGESTED whose suggestion scores at least
 * `minScore`, narrowed by the line's facts. What the confirmation counts and the filtered accept takes.
 */
export const suggestionFilterQuerySchema = z
  .object({ ...lineFactFilters, minScore: z.preprocess(blankToUndefined, minScoreSchema) })
  .superRefine(checkRanges);
export type SuggestionFilter = z.output<typeof suggestionFilterQuerySchema>;

/**
 * Only lines UNMATCHED with no open counterpart of their amount, in their direction, near their date: no
 * candidate for `1`–`3` (bank fees, chargebacks, a line printed twice; decision 0161). `true` in a query
 * string or a JSON body.
 */
const noCandidateFlag = z.union([z.literal(true), z.literal('true')]).transform(() => true as const);

/** The filters a bulk ignore takes (decision 0161): the line's facts, the ignorable statuses, no candidate. */
const ignoreFilterFields = {
  ...lineFactFilters,
  /** The table's status filter, of the statuses a line can be ignored from; both when absent. */
  status: repeatable(z.enum(STATEMENT_IGNORABLE_STATUSES)),
  noCandidate: optionalFilter(noCandidateFlag),
};

/** What narrows a bulk ignore: without one of these it would ignore every open line of every file. */
const NARROWING_FILTERS = [
  'statementFileId',
  'from',
  'to',
  'minCents',
  'maxCents',
  'kind',
  'counterparty',
  'text',
  'noCandidate',
] as const;

function checkIgnoreFilter(
  filter: z.output<z.ZodObject<typeof ignoreFilterFields>>,
  context: z.RefinementCtx,
) {
  checkRanges(filter, context);
  if (NARROWING_FILTERS.every((key) => filter[key] === undefined))
    context.addIssue({ code: 'custom', path: [], message: 'a filter narrowing the lines is required' });
}

/**
 * The open lines a filter lists, for `Shift+i` over it (decision 0161): UNMATCHED or SUGGESTED lines of
 * the filter's facts, every page. What the ignore's confirmation counts and the filtered ignore takes.
 */
export const ignoreFilterQuerySchema = z.object(ignoreFilterFields).superRefine(checkIgnoreFilter);
export type IgnoreFilter = z.output<typeof ignoreFilterQuerySchema>;

/** The confirmation of a filtered accept: how many lines, their sum, and when they were counted. */
export const suggestionFilterTotalsSchema = z.object({
  count: z.number().int(),
  sumCents: cents,
  /** When they were counted: the filtered accept leaves lines changed after this (and counts them). */
  asOf: z.iso.datetime(),
});
export type SuggestionFilterTotals = z.infer<typeof suggestionFilterTotalsSchema>;

export const statementLineListQuerySchema = z
  .object({
    ...lineFactFilters,
    status: repeatable(statementLineStatusSchema),
    /** Only lines whose suggestion scores at least this (so SUGGESTED ones). */
    minScore: optionalFilter(minScoreSchema),
    /**
     * Only lines imported in this month (`YYYY-MM`, Lisbon) and MATCHED without a decision taken line by
     * line: the home dashboard's automation rate counts them (decision 0147).
     */
    automatedMonth: optionalFilter(referenceMonthSchema),
    /**
     * Only lines MATCHED to a payout one of whose charges paid a settlement no invoice bills (`true`), the
     * payout breakdown's `settlementsWithoutInvoice` above zero (decision 0156).
     */
    payoutWithoutInvoice: optionalFilter(z.enum(['true']).transform(() => true)),
    noCandidate: optionalFilter(noCandidateFlag),
    to: optionalFilter(businessDay),
    order: z.preprocess(blankToUndefined, sortOrderSchema.default('asc')),
    limit: z.preprocess(
      blankToUndefined,
      z.coerce.number().int().min(1).max(STATEMENT_LINES_PAGE.max).default(STATEMENT_LINES_PAGE.default),
    ),
    cursor: optionalFilter(z.string().max(2000)),
  })
  .superRefine(checkRanges);
export type StatementLineListQuery = z.output<typeof statementLineListQuerySchema>;

export const statementLinePageSchema = pageSchema(statementLineRowSchema);

// ---------------------------------------------------------------------------------------------------
// Actions

export const counterpartRefSchema = z.strictObject({ kind: counterpartKindSchema, id: z.guid() });

export const statementMatchBodySchema = z
  .strictObject({
    counterparts: z.array(counterpartRefSchema).min(1).max(50),
    /**
     * Other lines matched together with this one (a payout split across two credits). Optional;
     * the amounts of all lines and all counterparts must add up, else DISCREPANCY and a note.
     */
    lineIds: z.array(z.guid()).max(50).optional(),
    note: noteSchema.optional(),
  })
  .superRefine((body, context) => {
    const keys = body.counterparts.map((c) => `${c.kind}:${c.id.toLowerCase()}`);
    if (new Set(keys).size !== keys.length)
      context.addIssue({ code: 'custom', path: ['counterparts'], message: 'repeated counterpart' });
  });

export const statementNoteBodySchema = z.strictObject({ note: noteSchema });

export const statementBulkAcceptBodySchema = z
  .strictObject({ lineIds: z.array(z.guid()).min(1).max(STATEMENT_BULK_ACCEPT_MAX) })
  .superRefine((body, context) => {
    if (new Set(body.lineIds.map((id) => id.toLowerCase())).size !== body.lineIds.length)
      context.addIssue({ code: 'custom', path: ['lineIds'], message: 'repeated id' });
  });

/**
 * `Shift+a` over a "score ≥ x" filter (decision 0147): every suggestion the filter selects, all pages, up
 * to 10,000 per request in the list's order; `asOf` is the confirmation's count (`…/lines/suggestions`).
 */
export const statementFilterAcceptBodySchema = z.strictObject({
  filter: z.strictObject({ ...lineFactFilters, minScore: minScoreSchema }).superRefine(checkRanges),
  asOf: z.iso.datetime(),
});

/**
 * `Shift+i` over a selection (decision 0161): the lines still UNMATCHED or SUGGESTED are ignored with the
 * note, in one transaction; the others are left and counted.
 */
export const statementBulkIgnoreBodySchema = z
  .strictObject({ lineIds: z.array(z.guid()).min(1).max(STATEMENT_BULK_ACCEPT_MAX), note: noteSchema })
  .superRefine((body, context) => {
    if (new Set(body.lineIds.map((id) => id.toLowerCase())).size !== body.lineIds.length)
      context.addIssue({ code: 'custom', path: ['lineIds'], message: 'repeated id' });
  });

/**
 * `Shift+i` over a filter (decision 0161): every open line the filter lists, all pages, up to 10,000 per
 * request in the list's order, as counted at `asOf` (`…/lines/ignorable`), each ignored with the note.
 */
export const statementFilterIgnoreBodySchema = z.strictObject({
  filter: z.strictObject(ignoreFilterFields).superRefine(checkIgnoreFilter),
  asOf: z.iso.datetime(),
  note: noteSchema,
});

/** A bulk ignore's counts (a selection's or a filter's); the console refetches the page it shows. */
export const statementBulkIgnoreResultSchema = z.object({
  action: z.object({ id: z.uuid(), kind: z.enum(STATEMENT_ACTION_KINDS) }),
  ignored: z.number().int(),
  /** Lines left as they are; the reasons add up to it. */
  skipped: z.number().int(),
  skippedBecause: z.object({
    /** Matched, in DISCREPANCY or ignored already (or, for a selection, not found). */
    notOpen: z.number().int(),
    /** Listed when counted (`asOf`), changed since (always 0 for a selection). */
    changedMeanwhile: z.number().int(),
  }),
  /** Lines the filter still lists beyond this request's 10,000 (another `Shift+i` takes them). */
  remaining: z.number().int(),
});
export type StatementBulkIgnoreResult = z.infer<typeof statementBulkIgnoreResultSchema>;

export const statementActionResultSchema = z.object({
  action: z.object({ id: z.uuid(), kind: z.enum(STATEMENT_ACTION_KINDS) }),
  lines: z.array(statementLineRowSchema),
});
export type StatementActionResult = z.infer<typeof statementActionResultSchema>;

/** Why a bulk accept left lines as they were; the three add up to `skipped`. */
export const statementBulkSkippedSchema = z.object({
  /** No single suggestion any more (accepted, matched, ignored or changed meanwhile). */
  notSuggested: z.number().int(),
  /** Its counterpart was matched meanwhile, or by a line before it in the same selection. */
  counterpartTaken: z.number().int(),
  /** The counterpart's amount is not the line's any more. */
  amountDiffers: z.number().int(),
});
export type StatementBulkSkipped = z.infer<typeof statementBulkSkippedSchema>;

/** Counts, not rows (decision 0108): the console refetches the page it shows. */
export const statementBulkAcceptResultSchema = statementActionResultSchema.omit({ lines: true }).extend({
  accepted: z.number().int(),
  /** Lines left as they are. */
  skipped: z.number().int(),
  skippedBecause: statementBulkSkippedSchema,
});
export type StatementBulkAcceptResult = z.infer<typeof statementBulkAcceptResultSchema>;

/** A filtered accept's counts: the bulk accept's, with the lines changed since they were counted. */
export const statementFilterAcceptResultSchema = z.object({
  action: z.object({ id: z.uuid(), kind: z.enum(STATEMENT_ACTION_KINDS) }),
  accepted: z.number().int(),
  skipped: z.number().int(),
  skippedBecause: statementBulkSkippedSchema.extend({
    /** Selected when counted (`asOf`), changed since (accepted, matched, its suggestion replaced…). */
    changedMeanwhile: z.number().int(),
  }),
  /** Lines the filter still selects beyond this request's 10,000 (another `Shift+a` takes them). */
  remaining: z.number().int(),
});
export type StatementFilterAcceptResult = z.infer<typeof statementFilterAcceptResultSchema>;

/**
 * An undo answers like the action it undoes: the rows of a one-line action; the count of lines put
 * back for a bulk accept (decision 0108) or a bulk ignore (decision 0161), whose screen refetches its page.
 */
export const statementUndoResultSchema = z.union([
  statementActionResultSchema,
  statementActionResultSchema.omit({ lines: true }).extend({ undone: z.number().int() }),
]);
export type StatementUndoResult = z.infer<typeof statementUndoResultSchema>;

export const statementLineHistorySchema = z.object({
  items: z.array(
    z.object({
      actor: person.nullable(),
      action: z.enum(STATEMENT_HISTORY_ACTIONS),
      before: z.unknown(),
      after: z.unknown(),
      createdAt: z.iso.datetime(),
    }),
  ),
});
