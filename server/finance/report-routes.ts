import { errorBodySchema } from '../../contract/common';
import {
  settlementReportDownloadQuerySchema,
  settlementReportQuerySchema,
  settlementReportSchema,
} from '../../contract/finance';
import { CSV_MEDIA_TYPE, csvChunks, XLSX_MEDIA_TYPE, xlsxChunks } from '../../domain/export-files';
import type { RouteRegistry } from '../http/routes';
import { contentDisposition } from '../http/send-file';
import { chunkStream } from '../http/stream';
import { reportColumns, reportFileName, reportRows, reportSheetName, settlementReport } from './reports';

/** "Reports": a month's settlements per doctor, as JSON and as CSV / XLSX files (issue 11). */
export function registerReportRoutes(routes: RouteRegistry): void {
  routes.add({
    method: 'get',
    path: '/v2/admin/settlement/reports/',
    summary: "A month's settlements per doctor (every status) with totals checked to the cent",
    tags: ['finance'],
    auth: 'admin',
    query: settlementReportQuerySchema,
    responses: { 200: { description: 'Per doctor, and the totals', schema: settlementReportSchema } },
    async handler(c, { query }) {
      return c.json(await settlementReport(c.var.deps.db, query.month));
    },
  });

  routes.add({
    method: 'get',
    path: '/v2/admin/settlement/reports/download',
    summary:
      'The same report as a CSV (UTF-8 with BOM, `;` and decimal comma in pt-PT) or XLSX file, streamed; formula-like cells neutralised',
    tags: ['finance'],
    auth: 'admin',
    query: settlementReportDownloadQuerySchema,
    responses: {
      200: {
        description: 'The file, one row per doctor and a totals row',
        contentType: 'application/octet-stream',
      },
      400: { description: 'Invalid month, format or locale', schema: errorBodySchema },
    },
    async handler(c, { query }) {
      const { month, format, locale } = query;
      // Read (and checked) before the first byte goes out: a failure is still a proper error answer.
      const report = await settlementReport(c.var.deps.db, month);
      const columns = reportColumns(locale);
      const rows = reportRows(report, locale);
      const chunks =
        format === 'csv'
          ? csvChunks(columns, rows, { locale })
          : xlsxChunks(columns, rows, { locale, sheetName: reportSheetName(locale) });
      return c.body(chunkStream(chunks), 200, {
        'Content-Type': format === 'csv' ? CSV_MEDIA_TYPE : XLSX_MEDIA_TYPE,
        'Content-Disposition': contentDisposition('attachment', reportFileName(month, locale, format)),
        'X-Content-Type-Options': 'nosniff',
      });
    },
  });
}
