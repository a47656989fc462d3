import { errorBodySchema } from '../../contract/common';
import {
  settlementBulkDeleteResultSchema,
  settlementBulkDeleteSchema,
  settlementConfirmResultSchema,
  settlementConfirmSchema,
  settlementInvoiceQuerySchema,
  settlementInvoiceSchema,
  settlementItemSchema,
  settlementPatchSchema,
  settlementRefundSchema,
  settlementRefusalSchema,
} from '../../contract/finance';
import { MAX_FILE_BYTES } from '../../contract/limits';
import { actorOf, ID, idParams } from '../http/actor';
import type { RouteRegistry } from '../http/routes';
import { sendStoredFile } from '../http/send-file';
import { refusingOversize, requestBody } from '../http/stream';
import { optionalIdempotencyKey, requestHash } from '../platform/idempotency';
import { confirmSettlements } from './confirm';
import { requireInvoiceFile, uploadInvoice } from './invoice';
import { bulkDeleteSettlements, deleteSettlement, patchSettlement, refundSettlement } from './manage';

const refusal = (description: string) => ({ description, schema: settlementRefusalSchema });
const notFound = { description: 'SETTLEMENT_NOT_FOUND', schema: errorBodySchema };
const BY_ID = `/v2/admin/settlement/${ID}`;

/** Settling a doctor's month and managing single settlements (issue 11, docs/decisions/0066–0067). */
export function registerSettlementRoutes(routes: RouteRegistry): void {
  routes.add({
    method: 'post',
    path: '/v2/admin/settlement/',
    summary:
      "Confirm the value of a doctor's month: the included settlements (with adjustments) become SETTLED, all or none; an optional `Idempotency-Key` makes a retry answer the first result",
    tags: ['finance'],
    auth: 'admin',
    body: settlementConfirmSchema,
    responses: {
      200: { description: 'What was settled', schema: settlementConfirmResultSchema },
      400: refusal("SELECT_ONE_DOCTOR ('Select one Doctor ID'), IDEMPOTENCY_KEY_INVALID, or invalid input"),
      404: refusal('USER_NOT_FOUND'),
      409: refusal(
        'PROFESSIONAL_MISSING_DATA (`missingFields`), NOT_A_PROFESSIONAL, SETTLEMENT_NOT_SETTLEABLE (`settlementIds`), SETTLEMENT_TOTAL_CHANGED — with the month as it stands now (`currentCount`, `currentTotalCents`)',
      ),
      422: refusal(
        'SETTLEMENT_NOT_IN_SELECTION, ADJUSTMENT_ABOVE_GROSS (`settlementIds`), IDEMPOTENCY_KEY_REUSED',
      ),
    },
    async handler(c, { body }) {
      const actor = actorOf(c);
      const key = optionalIdempotencyKey(c.req.header('idempotency-key'));
      const idempotency =
        key === null
          ? null
          : {
              scope: 'settlement.confirm',
              key,
              // The same selection in another order is the same request.
              sha256: requestHash({
                ...body,
                settlementIds: [...body.settlementIds].sort(),
                adjustments: [...body.adjustments].sort((a, b) =>
                  a.settlementId.localeCompare(b.settlementId),
                ),
              }),
              actorId: actor.userId,
              at: actor.at,
            };
      return c.json(await confirmSettlements(c.var.deps.db, actor, body, idempotency));
    },
  });

  routes.add({
    method: 'patch',
    path: BY_ID,
    summary: 'Adjust the payout (with a required note) or clear it; set or clear the notes',
    tags: ['finance'],
    auth: 'admin',
    params: idParams,
    body: settlementPatchSchema,
    responses: {
      200: { description: 'The settlement after the change', schema: settlementItemSchema },
      404: notFound,
      409: refusal('SETTLEMENT_NOT_ADJUSTABLE: already in a SEPA transfer, paid or refunded'),
      422: refusal('ADJUSTMENT_ABOVE_GROSS'),
    },
    async handler(c, { params, body }) {
      return c.json(await patchSettlement(c.var.deps.db, actorOf(c), params.id, body));
    },
  });

  routes.add({
    method: 'delete',
    path: BY_ID,
    summary: 'Delete a settlement (before PENDING_TRANSFER only)',
    tags: ['finance'],
    auth: 'admin',
    params: idParams,
    responses: {
      204: { description: 'Deleted' },
      404: notFound,
      409: refusal('SETTLEMENT_NOT_DELETABLE, SETTLEMENT_HAS_PAYOUT_HISTORY'),
    },
    async handler(c, { params }) {
      await deleteSettlement(c.var.deps.db, actorOf(c), params.id);
      return c.body(null, 204);
    },
  });

  routes.add({
    method: 'post',
    path: '/v2/admin/settlement/bulk-delete',
    summary: 'Delete a selection: each deletable one goes, the others are answered with their reason',
    tags: ['finance'],
    auth: 'admin',
    body: settlementBulkDeleteSchema,
    responses: {
      200: { description: 'Per id: deleted, or refused and why', schema: settlementBulkDeleteResultSchema },
    },
    async handler(c, { body }) {
      return c.json(await bulkDeleteSettlements(c.var.deps.db, actorOf(c), body.settlementIds));
    },
  });

  routes.add({
    method: 'post',
    path: `${BY_ID}/refund`,
    summary: 'The customer was refunded: → REFUNDED, or REFUNDED_PAID after payout (an amount to recover)',
    tags: ['finance'],
    auth: 'admin',
    params: idParams,
    body: settlementRefundSchema,
    responses: {
      200: { description: 'The settlement after the change', schema: settlementItemSchema },
      404: notFound,
      409: refusal('SETTLEMENT_TRANSITION_NOT_ALLOWED (PENDING_TRANSFER, already refunded)'),
    },
    async handler(c, { params, body }) {
      return c.json(await refundSettlement(c.var.deps.db, actorOf(c), params.id, body.note));
    },
  });

  routes.add({
    method: 'put',
    path: `${BY_ID}/invoice`,
    summary:
      "Upload the doctor's invoice (PDF, JPEG or PNG by its bytes, ≤ 40 MB); replaces any previous one",
    tags: ['finance'],
    auth: 'admin',
    params: idParams,
    query: settlementInvoiceQuerySchema,
    maxBodyBytes: MAX_FILE_BYTES,
    rawBody: { description: 'The file itself; its type is read from its first bytes, not from any header' },
    responses: {
      200: { description: 'The invoice as recorded', schema: settlementInvoiceSchema },
      404: notFound,
      415: refusal('INVOICE_TYPE_NOT_ALLOWED: not a PDF, JPEG or PNG'),
    },
    async handler(c, { params, query }) {
      const upload = { content: requestBody(c), maxBytes: MAX_FILE_BYTES, fileName: query.fileName };
      return c.json(
        await refusingOversize(
          uploadInvoice(c.var.deps.db, c.var.deps.storage, actorOf(c), params.id, upload),
        ),
      );
    },
  });

  routes.add({
    method: 'get',
    path: `${BY_ID}/invoice/download`,
    summary: "Download the settlement's invoice under its name, with the type its bytes were found to be",
    tags: ['finance'],
    auth: 'admin',
    params: idParams,
    responses: {
      200: { description: 'The invoice file', contentType: 'application/octet-stream' },
      404: refusal('SETTLEMENT_NOT_FOUND, INVOICE_NOT_FOUND, FILE_NOT_FOUND'),
    },
    async handler(c, { params }) {
      return sendStoredFile(c, await requireInvoiceFile(c.var.deps.db, params.id), {
        disposition: 'attachment',
      });
    },
  });
}
