import {
  datedExportRequestSchema,
  exportJobListQuerySchema,
  exportJobPageSchema,
  exportJobSchema,
  userExportRequestSchema,
} from '../../contract/exports';
import { CSV_MEDIA_TYPE, XLSX_MEDIA_TYPE } from '../../domain/export-files';
import { actorOf, ID, idParams } from '../http/actor';
import type { AppContext } from '../http/context';
import { type RouteRegistry, refused } from '../http/routes';
import { contentDisposition } from '../http/send-file';
import { openExportFile } from './export-file';
import {
  cancelExport,
  type ExportRequest,
  exportForDownload,
  findOwnExport,
  listOwnExports,
  startExport,
  toExportJob,
} from './jobs';

const notFound = refused('EXPORT_NOT_FOUND');

const START_RESPONSES = {
  202: {
    description: 'The job, queued: poll `GET /v2/admin/exports/{id}` for its progress',
    schema: exportJobSchema,
  },
  400: refused(
    'VALIDATION_ERROR (startDate required), EXPORT_TYPE_UNKNOWN, EXPORT_END_BEFORE_START, EXPORT_RANGE_TOO_LONG',
  ),
  422: refused(
    'NO_RECORDS_FOUND_WITH_DATES: nothing to export; EXPORT_XLSX_TOO_MANY_ROWS: more rows than an Excel sheet holds. No job recorded',
  ),
};

/** Records the job, answers 202 at once and wakes this instance's runner (any instance may run it). */
async function start(c: AppContext, request: ExportRequest, allowed: readonly string[]) {
  const { db, config, exportRunner, xlsxMaxRows } = c.var.deps;
  const job = await startExport(db, actorOf(c), request, allowed, config.publicUrl, xlsxMaxRows);
  exportRunner?.wake();
  return c.json(job, 202);
}

/** Exports as jobs (docs/decisions/0075–0077): start, "your exports", progress, cancel, download. */
export function registerExportsArea(routes: RouteRegistry): void {
  routes.add({
    method: 'post',
    path: '/v2/admin/users/export',
    summary: 'Start an export of users, customers or professionals by created or last-active date',
    tags: ['exports'],
    auth: 'admin',
    body: userExportRequestSchema,
    responses: START_RESPONSES,
    handler: (c, { body }) => start(c, body, ['USERS', 'CUSTOMERS', 'PROFESSIONALS']),
  });

  routes.add({
    method: 'post',
    path: '/v2/admin/cases/export',
    summary: 'Start an export of cases by created date',
    tags: ['exports'],
    auth: 'admin',
    body: datedExportRequestSchema,
    responses: START_RESPONSES,
    handler: (c, { body }) => start(c, { ...body, type: 'CASES' }, ['CASES']),
  });

  routes.add({
    method: 'post',
    path: '/v2/admin/share-link-occurrences',
    summary: 'Start the statistics export: share-link occurrences per day, link, referral name and doctor',
    tags: ['exports'],
    auth: 'admin',
    body: datedExportRequestSchema,
    responses: START_RESPONSES,
    handler: (c, { body }) => start(c, { ...body, type: 'STATS' }, ['STATS']),
  });

  routes.add({
    method: 'get',
    path: '/v2/admin/exports',
    summary: 'Your exports, newest first (keyset pages)',
    tags: ['exports'],
    auth: 'admin',
    query: exportJobListQuerySchema,
    responses: {
      200: { description: 'One page of your export jobs', schema: exportJobPageSchema },
      400: refused('VALIDATION_ERROR, INVALID_CURSOR'),
    },
    async handler(c, { query }) {
      return c.json(await listOwnExports(c.var.deps.db, c.var.session.userId, query));
    },
  });

  routes.add({
    method: 'get',
    path: `/v2/admin/exports/${ID}`,
    summary: 'One of your exports: status and progress (rows written of the estimated total)',
    tags: ['exports'],
    auth: 'admin',
    params: idParams,
    responses: { 200: { description: 'The job', schema: exportJobSchema }, 404: notFound },
    async handler(c, { params }) {
      return c.json(toExportJob(await findOwnExport(c.var.deps.db, c.var.session.userId, params.id)));
    },
  });

  routes.add({
    method: 'post',
    path: `/v2/admin/exports/${ID}/cancel`,
    summary: 'Cancel a queued or running export; a running one stops at its next heartbeat',
    tags: ['exports'],
    auth: 'admin',
    params: idParams,
    responses: {
      200: { description: 'The cancelled job', schema: exportJobSchema },
      404: notFound,
      409: refused('EXPORT_NOT_CANCELLABLE: already finished'),
    },
    async handler(c, { params }) {
      return c.json(await cancelExport(c.var.deps.db, actorOf(c), params.id));
    },
  });

  routes.add({
    method: 'get',
    path: `/v2/admin/exports/${ID}/download`,
    summary: 'Download a finished export (streamed; every download is audited)',
    tags: ['exports'],
    auth: 'admin',
    params: idParams,
    responses: {
      200: { description: 'The CSV or XLSX file', contentType: `${CSV_MEDIA_TYPE} | ${XLSX_MEDIA_TYPE}` },
      404: refused('EXPORT_NOT_FOUND, FILE_NOT_FOUND'),
      409: refused('EXPORT_NOT_READY'),
      410: refused('EXPORT_EXPIRED'),
    },
    async handler(c, { params }) {
      const { db, storage } = c.var.deps;
      const job = await exportForDownload(db, actorOf(c), params.id);
      const file = await openExportFile(storage, job.file_ref!);
      if (!file) {
        console.error(`export ${job.id}: its file ${job.file_ref} is missing`);
        return c.json({ code: 'FILE_NOT_FOUND' }, 404);
      }
      return c.body(file.stream, 200, {
        'Content-Type': job.format === 'CSV' ? CSV_MEDIA_TYPE : XLSX_MEDIA_TYPE,
        'Content-Disposition': contentDisposition('attachment', job.file_name ?? job.file_ref!),
        'Content-Length': String(file.sizeBytes),
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
      });
    },
  });
}
