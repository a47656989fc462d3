import { MAX_FILE_BYTES } from '../../contract/limits';
import {
  knownSourceRowsBodySchema,
  knownSourceRowsSchema,
  sourceFileListQuerySchema,
  sourceFilePageSchema,
  sourceImportAcceptedSchema,
  sourceImportJobSchema,
  sourceImportQuerySchema,
  sourceImportRefusalSchema,
} from '../../contract/source-import';
import { sourceContainerMismatch } from '../../domain/sources/source-sniff';
import { actorOf, ID, idParams } from '../http/actor';
import { now } from '../http/context';
import { type RouteRegistry, refused } from '../http/routes';
import { refusingOversize, requestBody } from '../http/stream';
import { readAll } from '../platform/files/storage';
import { optionalIdempotencyKey } from '../platform/idempotency';
import { refuse } from '../platform/refusal';
import { listSourceFiles } from './files';
import { knownSourceRows } from './known-rows';

const SOURCES = '/v2/admin/sources';

/**
 * The payment provider's payouts and the invoicing program's invoices, imported from their files (issue
 * 31, decision 0152): which rows are known, the upload and the job it starts, the imported files.
 */
export function registerSourcesArea(routes: RouteRegistry): void {
  routes.add({
    method: 'post',
    path: `${SOURCES}/known`,
    summary:
      "Which rows of a payouts report or SAF-T file were imported before, by the source's own ids (domain/sources/source-ids.ts), each with the file it came from",
    tags: ['sources'],
    auth: 'admin',
    body: knownSourceRowsBodySchema,
    responses: {
      200: { description: 'The ids already imported', schema: knownSourceRowsSchema },
    },
    async handler(c, { body }) {
      return c.json({ known: await knownSourceRows(c.var.deps.db, body.kind, body.ids) });
    },
  });

  routes.add({
    method: 'post',
    path: `${SOURCES}/imports`,
    summary:
      "Import a Stripe itemized payout reconciliation report, a collector's payout CSV (with its column mapping) or a SAF-T (PT) file (XML, gzip or a ZIP of one XML; ≤ 40 MB): refused before any job exists for what its bytes show, read again off the event loop (one upload at a time per instance), checked against the preview's row count and total and the file's own control totals, then imported in one transaction as a job, deduplicated by the source's ids and linked to the settlements (optional `Idempotency-Key`)",
    tags: ['sources'],
    auth: 'admin',
    query: sourceImportQuerySchema,
    maxBodyBytes: MAX_FILE_BYTES,
    rawBody: { description: 'The file exactly as the provider or invoicing program produced it' },
    responses: {
      202: { description: 'The import job, running', schema: sourceImportAcceptedSchema },
      400: refused('IDEMPOTENCY_KEY_INVALID'),
      409: {
        description:
          'SOURCE_ALREADY_IMPORTED (the same bytes), SOURCE_NOTHING_NEW (every row imported before), SOURCE_PREVIEW_MISMATCH (both counts and totals)',
        schema: sourceImportRefusalSchema,
      },
      413: refused('PAYLOAD_TOO_LARGE (over 40 MB), SAFT_ARCHIVE_TOO_LARGE'),
      415: {
        description:
          'SOURCE_NOT_THIS_KIND: the bytes are another type of file (`container`: zip, gzip, pdf, xml, text, …; gzip and ZIP only for SAF-T), SAFT_NOT_AUDIT_FILE',
        schema: sourceImportRefusalSchema,
      },
      422: {
        description:
          "SOURCE_MAPPING_REQUIRED, SOURCE_MAPPING_NOT_ALLOWED, the readers' refusals with their facts (SAFT_*, among them SAFT_CONTROL_TOTALS_MISMATCH with `mismatches`, and SAFT_SCHEMA_INVALID — against the official XSD read as 1.0, here for a file of up to 32 MiB of XML, by the job for a bigger one (its GET then answers `schemaErrors`) — with `schemaErrors`, and SAFT_SCHEMA_UNCHECKABLE for a file it cannot check, here or by the job (decision 0170); STRIPE_*, among them STRIPE_PAYOUT_SUM_MISMATCH with `payoutId`, `payoutCents`, `rowsNetCents`; PROVIDER_CSV_*), IDEMPOTENCY_KEY_REUSED",
        schema: sourceImportRefusalSchema,
      },
    },
    async handler(c, { query }) {
      const actor = actorOf(c);
      if (query.kind === 'COLLECTOR_PAYOUTS' && query.mapping === undefined)
        throw refuse('SOURCE_MAPPING_REQUIRED');
      if (query.kind !== 'COLLECTOR_PAYOUTS' && query.mapping !== undefined)
        throw refuse('SOURCE_MAPPING_NOT_ALLOWED');
      const key = optionalIdempotencyKey(c.req.header('idempotency-key'));
      const bytes = await refusingOversize(readAll(requestBody(c), MAX_FILE_BYTES));
      // Refused at once, without waiting for this instance's upload slot.
      const container = sourceContainerMismatch(query.kind, bytes);
      if (container !== null)
        throw refuse('SOURCE_NOT_THIS_KIND', { extra: { container, kind: query.kind } });
      const upload = {
        bytes,
        query,
        idempotency: key ? { scope: 'sources.import', key, actorId: actor.userId, at: actor.at } : null,
      };
      return c.json({ job: await c.var.deps.sourceImports.start(actor, upload) }, 202);
    },
  });

  routes.add({
    method: 'get',
    path: `${SOURCES}/imports/${ID}`,
    summary: 'A source import job: its phase and progress, then its counts or why it failed',
    tags: ['sources'],
    auth: 'admin',
    params: idParams,
    responses: {
      200: { description: 'The job', schema: sourceImportJobSchema },
      404: refused('SOURCE_IMPORT_NOT_FOUND'),
    },
    async handler(c, { params }) {
      const job = await c.var.deps.sourceImports.job(params.id, now(c));
      if (!job) throw refuse('SOURCE_IMPORT_NOT_FOUND');
      return c.json(job);
    },
  });

  routes.add({
    method: 'get',
    path: `${SOURCES}/files`,
    summary:
      'The imported payouts and invoices files, newest first: who imported each, its rows (new and imported before), its total and whether its control totals were checked',
    tags: ['sources'],
    auth: 'admin',
    query: sourceFileListQuerySchema,
    responses: {
      200: { description: 'A page of files', schema: sourceFilePageSchema },
      400: refused('INVALID_CURSOR'),
    },
    async handler(c, { query }) {
      return c.json(await listSourceFiles(c.var.deps.db, query));
    },
  });
}
