import { Readable } from 'node:stream';
import { z } from 'zod';
import {
  blockedDoctorPageSchema,
  professionalPayoutsSchema,
  SEPA_STATUS_REPORT_MAX_BYTES,
  sepaDryRunSchema,
  sepaFileDetailSchema,
  sepaFileListQuerySchema,
  sepaFilePageSchema,
  sepaFileSchema,
  sepaGenerateBodySchema,
  sepaGeneratedSchema,
  sepaStatusReportResultSchema,
  sepaToProcessQuerySchema,
  sepaToProcessSchema,
} from '../../contract/sepa';
import { SEPA_FILE_ACTIONS } from '../../contract/sepa-statuses';
import { LOCALE_IDS } from '../../contract/statuses';
import { actorOf, ID, idParams } from '../http/actor';
import { type AppContext, now } from '../http/context';
import { type RouteRegistry, refused } from '../http/routes';
import { contentDisposition, sendStoredFile } from '../http/send-file';
import { checkIdempotencyKey, requestHash } from '../platform/idempotency';
import { refuse } from '../platform/refusal';
import { listBlockedDoctors } from './payout-blocks';
import { professionalPayouts } from './payouts';
import { sepaToProcess } from './sepa-candidates';
import { sepaSpreadsheet, sepaXmlFile } from './sepa-downloads';
import { deleteSepaFile, listSepaFiles, markSepaFile, sepaFileDetail } from './sepa-files';
import { dryRunSepa, generateSepaFile } from './sepa-generate';
import { applyStatusReport } from './sepa-status-reports';

const SEPA = '/v2/admin/settlement/sepa';
const sepaDeps = (c: AppContext) => ({
  sepa: c.var.deps.config.sepa,
  storage: c.var.deps.storage,
});

/**
 * The bank's report as bytes: a raw XML body (`application/xml`, `text/xml`) or the first file of a
 * multipart form. The registry has already held the body to SEPA_STATUS_REPORT_MAX_BYTES.
 */
async function reportBytes(c: AppContext): Promise<Uint8Array> {
  const type = c.req.header('content-type') ?? '';
  if (/^multipart\/form-data/i.test(type)) {
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const file = Object.values(form).find((value): value is File => value instanceof File);
    if (!file) throw refuse('STATUS_REPORT_MISSING');
    return new Uint8Array(await file.arrayBuffer());
  }
  if (!/^(application|text)\/xml\s*(;|$)/i.test(type)) throw refuse('STATUS_REPORT_MISSING');
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  if (bytes.byteLength === 0) throw refuse('STATUS_REPORT_MISSING');
  return bytes;
}

/** The SEPA half of the finance area (issue 11): to process, generate, history, the bank's answer, payouts. */
export function registerSepaRoutes(routes: RouteRegistry): void {
  routes.add({
    method: 'get',
    path: `${SEPA}/to-process`,
    summary:
      "Settlements to process: SETTLED settlements in no live SEPA file, per doctor for a month, a page of doctors by name (keyset) with the month's kept totals",
    tags: ['sepa'],
    auth: 'admin',
    query: sepaToProcessQuerySchema,
    responses: {
      200: {
        description:
          'One page of doctors, each with what blocks them; pass `nextCursor` back as `cursor` with the same month',
        schema: sepaToProcessSchema,
      },
      400: refused('VALIDATION_ERROR, INVALID_CURSOR'),
    },
    async handler(c, { query }) {
      return c.json(await sepaToProcess(c.var.deps.db, query));
    },
  });

  routes.add({
    method: 'post',
    path: `${SEPA}/dry-run`,
    summary: 'What generating would do: transfers, total, execution date, excluded doctors; changes nothing',
    tags: ['sepa'],
    auth: 'admin',
    body: sepaGenerateBodySchema,
    responses: {
      200: { description: 'The plan', schema: sepaDryRunSchema },
      422: refused('SEPA_EXECUTION_DATE_IN_PAST'),
    },
    async handler(c, { body }) {
      return c.json(await dryRunSepa(c.var.deps.db, c.var.deps.config.sepa, body, now(c)));
    },
  });

  routes.add({
    method: 'post',
    path: `${SEPA}/`,
    summary:
      'Generate a pain.001.001.03 file (needs `Idempotency-Key`: a retry answers the same file); settlements → PENDING_TRANSFER',
    tags: ['sepa'],
    auth: 'admin',
    body: sepaGenerateBodySchema,
    responses: {
      200: {
        description: 'The file generated (or the first answer to this key)',
        schema: sepaGeneratedSchema,
      },
      400: refused('IDEMPOTENCY_KEY_REQUIRED, IDEMPOTENCY_KEY_INVALID'),
      409: refused('NO_SEPA_CREATED (nothing to pay), SEPA_CHANGED_RETRY'),
      422: refused('IDEMPOTENCY_KEY_REUSED, SEPA_EXECUTION_DATE_IN_PAST'),
    },
    async handler(c, { body }) {
      const actor = actorOf(c);
      const key = checkIdempotencyKey(c.req.header('idempotency-key'));
      const request = {
        scope: 'sepa.generate',
        key,
        sha256: requestHash({
          ...body,
          professionalIds: body.professionalIds && [...body.professionalIds].sort(),
        }),
        actorId: actor.userId,
        at: actor.at,
      };
      return c.json(await generateSepaFile(c.var.deps.db, sepaDeps(c), actor, body, request));
    },
  });

  routes.add({
    method: 'get',
    path: `${SEPA}/`,
    summary: 'SEPA history: files newest first (status, month filters; `msgId` jumps to one file)',
    tags: ['sepa'],
    auth: 'admin',
    query: sepaFileListQuerySchema,
    responses: { 200: { description: 'One page of files', schema: sepaFilePageSchema } },
    async handler(c, { query }) {
      return c.json(await listSepaFiles(c.var.deps.db, query));
    },
  });

  routes.add({
    method: 'get',
    path: `${SEPA}/${ID}`,
    summary: 'A SEPA file with its transfers, the settlements of each and the bank reports received',
    tags: ['sepa'],
    auth: 'admin',
    params: idParams,
    responses: {
      200: { description: 'The file', schema: sepaFileDetailSchema },
      404: refused('SEPA_FILE_NOT_FOUND'),
    },
    async handler(c, { params }) {
      return c.json(await sepaFileDetail(c.var.deps.db, params.id));
    },
  });

  routes.add({
    method: 'delete',
    path: `${SEPA}/${ID}`,
    summary: 'Delete a GENERATED file: its settlements return to SETTLED, its recoveries are owed again',
    tags: ['sepa'],
    auth: 'admin',
    params: idParams,
    responses: {
      204: { description: 'Deleted' },
      404: refused('SEPA_FILE_NOT_FOUND'),
      409: refused('SEPA_NOT_DELETABLE'),
    },
    async handler(c, { params }) {
      await deleteSepaFile(c.var.deps.db, actorOf(c), params.id);
      return c.body(null, 204);
    },
  });

  for (const action of SEPA_FILE_ACTIONS)
    routes.add({
      method: 'post',
      path: `${SEPA}/${ID}/${action}`,
      summary: `Mark the file ${action.toUpperCase()} (DESIGN §6 transitions; settlements follow)`,
      tags: ['sepa'],
      auth: 'admin',
      params: idParams,
      responses: {
        200: { description: 'The file after the change', schema: sepaFileSchema },
        404: refused('SEPA_FILE_NOT_FOUND'),
        409: refused('SEPA_TRANSITION_NOT_ALLOWED'),
      },
      async handler(c, { params }) {
        return c.json(await markSepaFile(c.var.deps.db, actorOf(c), params.id, action));
      },
    });

  routes.add({
    method: 'get',
    path: `${SEPA}/${ID}/download/xml`,
    summary: 'The pain.001 XML (the specification\'s "TXT"), named <MsgId>.xml; only while GENERATED',
    tags: ['sepa'],
    auth: 'admin',
    params: idParams,
    responses: {
      200: { description: 'The file as generated', contentType: 'application/xml' },
      404: refused('SEPA_FILE_NOT_FOUND'),
      409: refused('SEPA_NOT_DOWNLOADABLE'),
    },
    async handler(c, { params }) {
      return sendStoredFile(c, await sepaXmlFile(c.var.deps.db, actorOf(c), params.id), {
        disposition: 'attachment',
      });
    },
  });

  routes.add({
    method: 'get',
    path: `${SEPA}/${ID}/download/xlsx`,
    summary: 'The spreadsheet (the specification\'s "XLS"): one row per transfer; only while GENERATED',
    tags: ['sepa'],
    auth: 'admin',
    params: idParams,
    query: z.object({ locale: z.enum(LOCALE_IDS).default('pt-PT') }),
    responses: {
      200: {
        description: 'XLSX',
        contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      },
      404: refused('SEPA_FILE_NOT_FOUND'),
      409: refused('SEPA_NOT_DOWNLOADABLE'),
    },
    async handler(c, { params, query }) {
      const sheet = await sepaSpreadsheet(c.var.deps.db, actorOf(c), params.id, query.locale);
      return c.body(Readable.toWeb(Readable.from(sheet.chunks)) as ReadableStream<Uint8Array>, 200, {
        'Content-Type': sheet.mediaType,
        'Content-Disposition': contentDisposition('attachment', sheet.name),
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
      });
    },
  });

  routes.add({
    method: 'post',
    path: `${SEPA}/status-report`,
    summary:
      "Upload the bank's pain.002.001.03 status report (raw XML body or multipart): accepted → AVAILABLE, rejected → UNAVAILABLE, PART → rejected transfers back to SETTLED and the doctors blocked",
    tags: ['sepa'],
    auth: 'admin',
    maxBodyBytes: SEPA_STATUS_REPORT_MAX_BYTES,
    responses: {
      200: {
        description: 'What the report did (or did the first time)',
        schema: sepaStatusReportResultSchema,
      },
      400: refused('STATUS_REPORT_MISSING'),
      409: refused('STATUS_REPORT_TOO_LATE'),
      422: refused(
        'STATUS_REPORT_UNREADABLE, STATUS_REPORT_ENCODING_UNSUPPORTED, STATUS_REPORT_UNKNOWN_FILE, STATUS_REPORT_MISMATCH',
      ),
    },
    async handler(c) {
      const bytes = await reportBytes(c);
      return c.json(await applyStatusReport(c.var.deps.db, actorOf(c), bytes));
    },
  });

  routes.add({
    method: 'get',
    path: '/v2/admin/professionals/payout-blocked',
    summary: 'Doctors whose payouts are blocked now, each with the block that holds (the home card)',
    tags: ['sepa'],
    auth: 'admin',
    responses: { 200: { description: 'Every blocked doctor', schema: blockedDoctorPageSchema } },
    async handler(c) {
      return c.json(await listBlockedDoctors(c.var.deps.db));
    },
  });

  routes.add({
    method: 'get',
    path: `/v2/admin/professionals/${ID}/payouts`,
    summary: "A doctor's payouts: settlements per status, transfers, payout block, amount to recover",
    tags: ['sepa'],
    auth: 'admin',
    params: idParams,
    responses: {
      200: { description: 'The payouts', schema: professionalPayoutsSchema },
      404: refused('USER_NOT_FOUND'),
      409: refused('NOT_A_PROFESSIONAL'),
    },
    async handler(c, { params }) {
      return c.json(await professionalPayouts(c.var.deps.db, params.id));
    },
  });
}
