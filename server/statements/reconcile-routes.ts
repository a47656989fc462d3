import {
  candidatesSchema,
  ignoreFilterQuerySchema,
  statementActionResultSchema,
  statementBulkAcceptBodySchema,
  statementBulkAcceptResultSchema,
  statementBulkIgnoreBodySchema,
  statementBulkIgnoreResultSchema,
  statementFileListQuerySchema,
  statementFilePageSchema,
  statementFileRowSchema,
  statementFilterAcceptBodySchema,
  statementFilterAcceptResultSchema,
  statementFilterIgnoreBodySchema,
  statementLineHistorySchema,
  statementLineListQuerySchema,
  statementLinePageSchema,
  statementMatchBodySchema,
  statementNoteBodySchema,
  statementUndoResultSchema,
  suggestionFilterQuerySchema,
  suggestionFilterTotalsSchema,
} from '../../contract/reconciliation';
import { actorOf, ID, idParams } from '../http/actor';
import { type RouteRegistry, refused } from '../http/routes';
import { checkIdempotencyKey, requestHash } from '../platform/idempotency';
import { bulkIgnore, filterIgnore, ignorableTotals } from './bulk-ignore';
import { listStatementFiles, markStatementReconciled, statementFile } from './files';
import { lineHistory } from './history';
import { lineCandidates, listLines } from './lines';
import {
  acceptSuggestion,
  bulkAccept,
  ignoreLine,
  matchLine,
  noteLine,
  undoAction,
  unmatchLine,
} from './reconcile';
import { filterAccept, suggestionTotals } from './score-filter';

const STATEMENTS = '/v2/admin/statements';
const actionAnswer = {
  description: 'The action and the rows it changed, as they now are',
  schema: statementActionResultSchema,
};
const lineRefusals = {
  404: refused('STATEMENT_LINE_NOT_FOUND, STATEMENT_COUNTERPART_NOT_FOUND'),
  409: refused(
    'STATEMENT_FILE_RECONCILED, STATEMENT_LINE_ALREADY_MATCHED, STATEMENT_LINE_NOT_MATCHED, STATEMENT_NO_SUGGESTION, STATEMENT_COUNTERPART_TAKEN, STATEMENT_UNMATCH_BLOCKED',
  ),
  422: refused('STATEMENT_NOTE_REQUIRED, STATEMENT_MATCH_WRONG_DIRECTION'),
};

/** Matching and reconciliation of bank statements (issue 12, points 4–6; decisions 0093, 0094). */
export function registerStatementReconciliationRoutes(routes: RouteRegistry): void {
  routes.add({
    method: 'get',
    path: `${STATEMENTS}/files`,
    summary: 'Statement files, newest import first, with balances and progress (lines matched or ignored)',
    tags: ['statements'],
    auth: 'admin',
    query: statementFileListQuerySchema,
    responses: { 200: { description: 'One page of files', schema: statementFilePageSchema } },
    async handler(c, { query }) {
      return c.json(await listStatementFiles(c.var.deps.db, query));
    },
  });

  routes.add({
    method: 'get',
    path: `${STATEMENTS}/files/${ID}`,
    summary: 'One statement file',
    tags: ['statements'],
    auth: 'admin',
    params: idParams,
    responses: {
      200: { description: 'The file', schema: statementFileRowSchema },
      404: refused('STATEMENT_FILE_NOT_FOUND'),
    },
    async handler(c, { params }) {
      return c.json(await statementFile(c.var.deps.db, params.id));
    },
  });

  routes.add({
    method: 'post',
    path: `${STATEMENTS}/files/${ID}/reconciled`,
    summary: 'Mark a statement reconciled: every line MATCHED or IGNORED and the balances consistent',
    tags: ['statements'],
    auth: 'admin',
    params: idParams,
    responses: {
      200: { description: 'The file, reconciled', schema: statementFileRowSchema },
      404: refused('STATEMENT_FILE_NOT_FOUND'),
      409: refused('STATEMENT_NOT_RECONCILABLE'),
    },
    async handler(c, { params }) {
      return c.json(await markStatementReconciled(c.var.deps.db, actorOf(c), params.id));
    },
  });

  routes.add({
    method: 'get',
    path: `${STATEMENTS}/lines`,
    summary:
      'Statement lines (all files or one): filters status, dates, amount, kind, counterparty; keyset by bank date',
    tags: ['statements'],
    auth: 'admin',
    query: statementLineListQuerySchema,
    responses: { 200: { description: 'One page of lines', schema: statementLinePageSchema } },
    async handler(c, { query }) {
      return c.json(await listLines(c.var.deps.db, query));
    },
  });

  routes.add({
    method: 'get',
    path: `${STATEMENTS}/lines/${ID}/candidates`,
    summary: "A line's candidates, best first, each with its explained score",
    tags: ['statements'],
    auth: 'admin',
    params: idParams,
    responses: {
      200: { description: 'Ranked candidates', schema: candidatesSchema },
      404: refused('STATEMENT_LINE_NOT_FOUND'),
    },
    async handler(c, { params }) {
      return c.json({ candidates: await lineCandidates(c.var.deps.db, params.id) });
    },
  });

  routes.add({
    method: 'get',
    path: `${STATEMENTS}/lines/${ID}/history`,
    summary: "A line's history: who, when, before → after",
    tags: ['statements'],
    auth: 'admin',
    params: idParams,
    responses: {
      200: { description: 'Oldest first', schema: statementLineHistorySchema },
      404: refused('STATEMENT_LINE_NOT_FOUND'),
    },
    async handler(c, { params }) {
      return c.json(await lineHistory(c.var.deps.db, params.id));
    },
  });

  /** What the five single-line actions share: `POST …/lines/{id}/<verb>` answering the changed rows. */
  const lineRoute = (verb: string, summary: string) => ({
    method: 'post' as const,
    path: `${STATEMENTS}/lines/${ID}/${verb}`,
    summary,
    tags: ['statements'],
    auth: 'admin' as const,
    params: idParams,
    responses: { 200: actionAnswer, ...lineRefusals },
  });

  routes.add({
    ...lineRoute('accept', "Accept the line's suggestion"),
    async handler(c, { params }) {
      return c.json(await acceptSuggestion(c.var.deps.db, actorOf(c), params.id));
    },
  });
  routes.add({
    ...lineRoute(
      'match',
      'Match the line (and optionally other lines) to counterparts; amounts not adding up → DISCREPANCY, note required',
    ),
    body: statementMatchBodySchema,
    async handler(c, { params, body }) {
      return c.json(await matchLine(c.var.deps.db, actorOf(c), params.id, body));
    },
  });
  routes.add({
    ...lineRoute('ignore', 'Ignore the line, with a note (bank fees, transfers between own accounts)'),
    body: statementNoteBodySchema,
    async handler(c, { params, body }) {
      return c.json(await ignoreLine(c.var.deps.db, actorOf(c), params.id, body.note));
    },
  });
  routes.add({
    ...lineRoute('unmatch', 'Unmatch the line, reversing every consequence of its match'),
    async handler(c, { params }) {
      return c.json(await unmatchLine(c.var.deps.db, actorOf(c), params.id));
    },
  });
  routes.add({
    ...lineRoute('notes', "Set the line's note"),
    body: statementNoteBodySchema,
    async handler(c, { params, body }) {
      return c.json(await noteLine(c.var.deps.db, actorOf(c), params.id, body.note));
    },
  });

  routes.add({
    method: 'post',
    path: `${STATEMENTS}/lines/accept`,
    summary:
      'Accept the suggestions of up to 10,000 lines (needs `Idempotency-Key`: a retry answers the same outcome)',
    tags: ['statements'],
    auth: 'admin',
    body: statementBulkAcceptBodySchema,
    responses: {
      200: {
        description: 'Accepted and skipped, with the rows as they now are',
        schema: statementBulkAcceptResultSchema,
      },
      400: refused('IDEMPOTENCY_KEY_REQUIRED, IDEMPOTENCY_KEY_INVALID'),
      422: refused('IDEMPOTENCY_KEY_REUSED'),
    },
    async handler(c, { body }) {
      const actor = actorOf(c);
      const key = checkIdempotencyKey(c.req.header('idempotency-key'));
      const request = {
        scope: 'statement.bulk-accept',
        key,
        sha256: requestHash({ lineIds: body.lineIds.map((id) => id.toLowerCase()).sort() }),
        actorId: actor.userId,
        at: actor.at,
      };
      return c.json(await bulkAccept(c.var.deps.db, actor, body.lineIds, request));
    },
  });

  routes.add({
    method: 'get',
    path: `${STATEMENTS}/lines/suggestions`,
    summary:
      'How many suggestions a "score ≥ x" filter selects (all pages) and their sum: the confirmation of its accept',
    tags: ['statements'],
    auth: 'admin',
    query: suggestionFilterQuerySchema,
    responses: { 200: { description: 'Count, sum and when', schema: suggestionFilterTotalsSchema } },
    async handler(c, { query }) {
      return c.json(await suggestionTotals(c.var.deps.db, query, actorOf(c).at));
    },
  });

  routes.add({
    method: 'post',
    path: `${STATEMENTS}/lines/accept-filter`,
    summary:
      'Accept every suggestion a "score ≥ x" filter selects, up to 10,000 (needs `Idempotency-Key`); lines changed since `asOf` are left and counted',
    tags: ['statements'],
    auth: 'admin',
    body: statementFilterAcceptBodySchema,
    responses: {
      200: { description: 'Accepted, skipped and why, remaining', schema: statementFilterAcceptResultSchema },
      400: refused('IDEMPOTENCY_KEY_REQUIRED, IDEMPOTENCY_KEY_INVALID'),
      409: refused('STATEMENT_SUGGESTION_COUNT_STALE'),
      422: refused('IDEMPOTENCY_KEY_REUSED'),
    },
    async handler(c, { body }) {
      const actor = actorOf(c);
      const key = checkIdempotencyKey(c.req.header('idempotency-key'));
      const request = {
        scope: 'statement.filter-accept',
        key,
        sha256: requestHash(body),
        actorId: actor.userId,
        at: actor.at,
      };
      return c.json(await filterAccept(c.var.deps.db, actor, body.filter, new Date(body.asOf), request));
    },
  });

  routes.add({
    method: 'post',
    path: `${STATEMENTS}/lines/ignore`,
    summary:
      'Ignore up to 10,000 lines with one note (needs `Idempotency-Key`); lines no longer UNMATCHED or SUGGESTED are left and counted',
    tags: ['statements'],
    auth: 'admin',
    body: statementBulkIgnoreBodySchema,
    responses: {
      200: { description: 'Ignored, skipped and why', schema: statementBulkIgnoreResultSchema },
      400: refused('IDEMPOTENCY_KEY_REQUIRED, IDEMPOTENCY_KEY_INVALID'),
      422: refused('IDEMPOTENCY_KEY_REUSED'),
    },
    async handler(c, { body }) {
      const actor = actorOf(c);
      const request = {
        scope: 'statement.bulk-ignore',
        key: checkIdempotencyKey(c.req.header('idempotency-key')),
        sha256: requestHash({ lineIds: body.lineIds.map((id) => id.toLowerCase()).sort(), note: body.note }),
        actorId: actor.userId,
        at: actor.at,
      };
      return c.json(await bulkIgnore(c.var.deps.db, actor, body.lineIds, body.note, request));
    },
  });

  routes.add({
    method: 'get',
    path: `${STATEMENTS}/lines/ignorable`,
    summary:
      'How many UNMATCHED or SUGGESTED lines a filter lists (all pages) and their sum: the confirmation of its ignore',
    tags: ['statements'],
    auth: 'admin',
    query: ignoreFilterQuerySchema,
    responses: { 200: { description: 'Count, sum and when', schema: suggestionFilterTotalsSchema } },
    async handler(c, { query }) {
      return c.json(await ignorableTotals(c.var.deps.db, query, actorOf(c).at));
    },
  });

  routes.add({
    method: 'post',
    path: `${STATEMENTS}/lines/ignore-filter`,
    summary:
      'Ignore every UNMATCHED or SUGGESTED line a filter lists, up to 10,000, with one note (needs `Idempotency-Key`); lines changed since `asOf` are left and counted',
    tags: ['statements'],
    auth: 'admin',
    body: statementFilterIgnoreBodySchema,
    responses: {
      200: { description: 'Ignored, skipped and why, remaining', schema: statementBulkIgnoreResultSchema },
      400: refused('IDEMPOTENCY_KEY_REQUIRED, IDEMPOTENCY_KEY_INVALID'),
      409: refused('STATEMENT_IGNORE_COUNT_STALE'),
      422: refused('IDEMPOTENCY_KEY_REUSED'),
    },
    async handler(c, { body }) {
      const actor = actorOf(c);
      const request = {
        scope: 'statement.filter-ignore',
        key: checkIdempotencyKey(c.req.header('idempotency-key')),
        sha256: requestHash(body),
        actorId: actor.userId,
        at: actor.at,
      };
      return c.json(
        await filterIgnore(c.var.deps.db, actor, body.filter, new Date(body.asOf), body.note, request),
      );
    },
  });

  routes.add({
    method: 'post',
    path: `${STATEMENTS}/actions/${ID}/undo`,
    summary: 'Undo a reconciliation action; refused if one of its lines changed since',
    tags: ['statements'],
    auth: 'admin',
    params: idParams,
    responses: {
      200: {
        description: 'The undo and the rows it put back, or how many for a bulk accept or ignore',
        schema: statementUndoResultSchema,
      },
      404: refused('STATEMENT_ACTION_NOT_FOUND'),
      409: refused(
        'STATEMENT_ACTION_STALE, STATEMENT_FILE_RECONCILED, STATEMENT_COUNTERPART_TAKEN, STATEMENT_UNMATCH_BLOCKED',
      ),
    },
    async handler(c, { params }) {
      return c.json(await undoAction(c.var.deps.db, actorOf(c), params.id));
    },
  });
}
