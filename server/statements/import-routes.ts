import { MAX_FILE_BYTES } from '../../contract/limits';
import {
  knownLinesBodySchema,
  knownLinesSchema,
  statementAccountsSchema,
  statementImportAcceptedSchema,
  statementImportJobSchema,
  statementImportQuerySchema,
  statementImportRefusalSchema,
} from '../../contract/statement-import';
import { actorOf, ID, idParams } from '../http/actor';
import { now } from '../http/context';
import { type RouteRegistry, refused } from '../http/routes';
import { refusingOversize, requestBody } from '../http/stream';
import { readAll } from '../platform/files/storage';
import { optionalIdempotencyKey } from '../platform/idempotency';
import { refuse } from '../platform/refusal';
import { listStatementAccounts } from './accounts';
import { knownLines } from './known-lines';
import { refuseUnlessStatementBytes } from './upload-guards';

const STATEMENTS = '/v2/admin/statements';

/** Importing bank statements (issue 12): which lines are known, the upload, and the job it starts. */
export function registerStatementImportRoutes(routes: RouteRegistry): void {
  routes.add({
    method: 'post',
    path: `${STATEMENTS}/known-lines`,
    summary:
      'Which lines of one statement (its account, period, bank statement id and sequence, and its line keys: statementLineKeys, domain/statements/line-key.ts) were imported before, by which rule and from which file',
    tags: ['statements'],
    auth: 'admin',
    body: knownLinesBodySchema,
    responses: {
      200: {
        description: 'The keys already imported, each with the rule that recognised it',
        schema: knownLinesSchema,
      },
    },
    async handler(c, { body }) {
      return c.json({ known: await knownLines(c.var.deps.db, body) });
    },
  });

  routes.add({
    method: 'post',
    path: `${STATEMENTS}/imports`,
    summary:
      "Import a statement file (CSV, camt.053, MT940 in EUR; ≤ 40 MB; one or more statements, one per account and period): read again (one upload at a time per instance, off the event loop), refused before any job exists for anything visible in its bytes, checked against the preview's line count and total, then imported in one transaction as a job (optional `Idempotency-Key`). `accountIban`: the account of a statement whose file names none; `mismatchNote`: imports statements whose balances do not add up",
    tags: ['statements'],
    auth: 'admin',
    query: statementImportQuerySchema,
    maxBodyBytes: MAX_FILE_BYTES,
    rawBody: { description: 'The statement file exactly as the bank produced it' },
    responses: {
      202: { description: 'The import job, running', schema: statementImportAcceptedSchema },
      400: refused('IDEMPOTENCY_KEY_INVALID'),
      409: refused('STATEMENT_ALREADY_IMPORTED, STATEMENT_NOTHING_NEW, STATEMENT_PREVIEW_MISMATCH'),
      413: refused('PAYLOAD_TOO_LARGE (over 40 MB)'),
      415: {
        description:
          'STATEMENT_NOT_A_STATEMENT: the bytes are a ZIP/Office/PDF/image/archive, whatever the name says (`container`)',
        schema: statementImportRefusalSchema,
      },
      422: {
        description:
          'STATEMENT_EMPTY, STATEMENT_CONTROL_CHARACTERS (`line`), STATEMENT_CURRENCY_UNSUPPORTED (`currency`; only EUR), STATEMENT_UNREADABLE, STATEMENT_HAS_ERRORS, STATEMENT_ACCOUNT_REQUIRED, STATEMENT_ACCOUNT_INVALID, STATEMENT_BALANCE_MISMATCH (with `statements`: each one whose balances do not add up), IDEMPOTENCY_KEY_REUSED',
        schema: statementImportRefusalSchema,
      },
    },
    async handler(c, { query }) {
      const actor = actorOf(c);
      const key = optionalIdempotencyKey(c.req.header('idempotency-key'));
      const bytes = await refusingOversize(readAll(requestBody(c), MAX_FILE_BYTES));
      // Refused at once, without waiting for this instance's statement slot (decision 0122).
      refuseUnlessStatementBytes(bytes);
      const upload = {
        bytes,
        query,
        idempotency: key ? { scope: 'statements.import', key, actorId: actor.userId, at: actor.at } : null,
      };
      return c.json({ job: await c.var.deps.statementImports.start(actor, upload) }, 202);
    },
  });

  routes.add({
    method: 'get',
    path: `${STATEMENTS}/imports/${ID}`,
    summary: 'An import job: its phase and progress, then its result or why it failed',
    tags: ['statements'],
    auth: 'admin',
    params: idParams,
    responses: {
      200: { description: 'The job', schema: statementImportJobSchema },
      404: refused('STATEMENT_IMPORT_NOT_FOUND'),
    },
    async handler(c, { params }) {
      const job = await c.var.deps.statementImports.job(params.id, now(c));
      if (!job) throw refuse('STATEMENT_IMPORT_NOT_FOUND');
      return c.json(job);
    },
  });

  routes.add({
    method: 'get',
    path: `${STATEMENTS}/accounts`,
    summary:
      "The accounts statements were imported for: each one's number of statements and its latest statement's period end and closing balance (the preview's account picker)",
    tags: ['statements'],
    auth: 'admin',
    responses: { 200: { description: 'The known accounts, by IBAN', schema: statementAccountsSchema } },
    async handler(c) {
      return c.json({ items: await listStatementAccounts(c.var.deps.db) });
    },
  });
}
