import type { SepaStatus } from '../sepa-status';
import type {
  Pain002Report,
  ReportedPaymentInformation,
  Status,
  StatusKind,
  StatusReason,
} from './read-pain002';

/** What happens to one transfer: REJECTED returns its settlements to SETTLED and blocks the doctor's payouts. */
export type TransferOutcome = 'ACCEPTED' | 'REJECTED' | 'PENDING' | 'UNDETERMINED';
export type ReportOutcome = 'ACCEPTED' | 'REJECTED' | 'PARTIAL' | 'PENDING' | 'UNDETERMINED';
export type DecidedAt = 'TRANSACTION' | 'PAYMENT_INFORMATION' | 'GROUP';

export interface TransferDecision {
  endToEndId: string;
  instructionId: string | null;
  paymentInformationId: string;
  decision: TransferOutcome;
  /** The status code that decided, and at which level; null when no level said anything. */
  status: string | null;
  decidedAt: DecidedAt | null;
  /** The transaction's own reasons if it has any, else those of the level that decided. */
  reasons: StatusReason[];
  amountCents: number | null;
}

export interface PaymentInformationDecision {
  paymentInformationId: string;
  status: string | null;
  decidedAt: DecidedAt | null;
  /**
   * What applies to the block's transfers the report does not name by EndToEndId: the block's
   * status, else the group's; ACCEPTED under PART (a partial report names what was not accepted);
   * null when neither level has a status.
   */
  others: TransferOutcome | null;
  /** The block's own reasons, else those of the level that decided. */
  reasons: StatusReason[];
}

/** One rejection to act on: a named transfer, every other transfer of a block, or the whole file. */
export interface Rejection {
  scope: 'TRANSFER' | 'PAYMENT_INFORMATION' | 'FILE';
  paymentInformationId: string | null;
  endToEndId: string | null;
  status: string;
  reasons: StatusReason[];
}

export type InterpretationNoteCode =
  /** No level of the report has a status. */
  | 'NO_STATUS'
  /** A status outside the pain.002.001.03 lists. */
  | 'UNKNOWN_STATUS'
  /** PART, but nothing below it is rejected or pending: which transfers failed is not said. */
  | 'PARTIAL_WITHOUT_DETAIL'
  /** The block's NbOfTxsPerSts counts more rejections than it names. */
  | 'REJECTED_COUNT_MISMATCH'
  /** A transaction without OrgnlEndToEndId whose outcome differs from its block's. */
  | 'UNIDENTIFIED_TRANSACTION'
  /** A transaction named without a status at its level or any level above. */
  | 'TRANSACTION_WITHOUT_STATUS'
  /** The same EndToEndId (or PmtInfId) twice with different outcomes. */
  | 'CONFLICTING_STATUSES'
  /** Accepted or pending below a rejection: the lower level wins, but someone should look. */
  | 'LEVELS_DISAGREE';

export interface InterpretationNote {
  code: InterpretationNoteCode;
  paymentInformationId?: string;
  endToEndId?: string;
  status?: string;
}

export interface StatusInterpretation {
  reportMessageId: string;
  reportCreatedAt: string;
  originalMessageId: string;
  outcome: ReportOutcome;
  /** The SEPA file's new status; null leaves it as it is. */
  fileStatus: Extract<SepaStatus, 'AVAILABLE' | 'UNAVAILABLE'> | null;
  transfers: TransferDecision[];
  paymentInformation: PaymentInformationDecision[];
  /** What applies to transfers of payment blocks the report does not mention (from the group status). */
  otherPaymentInformation: TransferOutcome | null;
  /** `OrgnlGrpInfAndSts/StsRsnInf`: the group's reasons, whatever its status. */
  groupReasons: StatusReason[];
  rejections: Rejection[];
  notes: InterpretationNote[];
}

interface Decided {
  decision: TransferOutcome;
  status: string;
  decidedAt: DecidedAt;
  reasons: StatusReason[];
}

const outcomeOf = (kind: Exclude<StatusKind, 'PARTIAL'>): TransferOutcome =>
  kind === 'UNKNOWN' ? 'UNDETERMINED' : kind;

/** A status that decides for everything below it (not PART), or null. */
function whole(status: Status | null, decidedAt: DecidedAt, reasons: StatusReason[]): Decided | null {
  if (!status || status.kind === 'PARTIAL') return null;
  return { decision: outcomeOf(status.kind), status: status.code, decidedAt, reasons };
}

const rejectedCount = (p: ReportedPaymentInformation): number =>
  p.counts.filter((c) => c.status === 'RJCT').reduce((n, c) => n + (c.count ?? 0), 0);

/**
 * The bank's answer as decisions (DESIGN.md §6, decision 0058). Pure: the same report always gives
 * the same interpretation, so reading a report twice changes nothing.
 *
 * How the three levels combine — the most specific status wins:
 * - A transfer named by `OrgnlEndToEndId` takes its own `TxSts`; without one, its block's
 *   `PmtInfSts`; without one, the `GrpSts`. PART never decides a single transfer: a transfer named
 *   under PART without its own status is UNDETERMINED.
 * - A transfer the report does not name takes its block's status, else the group's; under PART it
 *   is ACCEPTED (a partial report names what was not accepted). A block the report does not
 *   mention takes the group status (`otherPaymentInformation`).
 * - Reasons: the transaction's own `StsRsnInf` if any, else those of the level that decided.
 * - A transaction without `OrgnlEndToEndId` cannot be matched (our files carry no InstrId): if its
 *   outcome is the block's it changes nothing, otherwise the report is UNDETERMINED.
 * - Any unknown status code, PART without a named rejection or pending transfer, fewer named
 *   rejections than the block's `NbOfTxsPerSts` counts, or the same EndToEndId with two outcomes
 *   makes the whole report UNDETERMINED: shown to an admin, nothing applied.
 *
 * The outcome collects the outcomes present: every named transfer, every block's unnamed rest
 * (unless `OrgnlNbOfTxs` says all were named), the rest of a PART, and the group status when no
 * block is listed. Only ACCEPTED → ACCEPTED (file AVAILABLE); only REJECTED → REJECTED (file
 * UNAVAILABLE); REJECTED with ACCEPTED or PENDING → PARTIAL (file AVAILABLE if anything was
 * accepted, the rejections listed); else PENDING (no change). ACTC/ACCP/ACSP/ACSC/ACWC count as
 * accepted, RJCT rejected, PDNG and RCVD pending.
 */
export function interpretStatusReport(report: Pain002Report): StatusInterpretation {
  const notes: InterpretationNote[] = [];
  const found: TransferOutcome[] = [];
  const g = report.original;
  const groupWhole = whole(g.status, 'GROUP', g.reasons);
  const groupPartial = g.status?.kind === 'PARTIAL';
  if (g.status?.kind === 'UNKNOWN') notes.push({ code: 'UNKNOWN_STATUS', status: g.status.code });
  const otherPaymentInformation = groupPartial ? 'ACCEPTED' : (groupWhole?.decision ?? null);

  const transfers: TransferDecision[] = [];
  const blockRejections: Rejection[] = [];
  const paymentInformation: PaymentInformationDecision[] = [];
  const blockOutcomes = new Map<string, TransferOutcome | null>();

  for (const p of report.payments) {
    const id = p.originalPaymentInformationId;
    const own = whole(p.status, 'PAYMENT_INFORMATION', p.reasons);
    const partial = p.status?.kind === 'PARTIAL';
    if (p.status?.kind === 'UNKNOWN')
      notes.push({ code: 'UNKNOWN_STATUS', paymentInformationId: id, status: p.status.code });
    const deciding = p.status ? own : groupWhole;
    const others: TransferOutcome | null =
      partial || (!p.status && groupPartial) ? 'ACCEPTED' : (deciding?.decision ?? null);
    if (blockOutcomes.has(id) && blockOutcomes.get(id) !== others) {
      notes.push({ code: 'CONFLICTING_STATUSES', paymentInformationId: id });
      found.push('UNDETERMINED');
    }
    blockOutcomes.set(id, others);
    if (
      own &&
      own.decision !== 'REJECTED' &&
      own.decision !== 'UNDETERMINED' &&
      groupWhole?.decision === 'REJECTED'
    )
      notes.push({ code: 'LEVELS_DISAGREE', paymentInformationId: id, status: own.status });
    paymentInformation.push({
      paymentInformationId: id,
      status: p.status?.code ?? (groupWhole ? groupWhole.status : null),
      decidedAt: p.status ? 'PAYMENT_INFORMATION' : groupWhole ? 'GROUP' : null,
      others,
      // The block's own reasons first, also under PART (which decides nothing itself): they cover
      // the block's transfers that have none of their own.
      reasons: p.reasons.length > 0 ? p.reasons : (deciding?.reasons ?? []),
    });

    let named = 0;
    let namedNotAccepted = 0;
    let namedRejected = 0;
    for (const t of p.transactions) {
      const mine = whole(t.status, 'TRANSACTION', t.reasons);
      if (t.status?.kind === 'UNKNOWN' || t.status?.kind === 'PARTIAL')
        notes.push({
          code: 'UNKNOWN_STATUS',
          paymentInformationId: id,
          status: t.status.code,
          ...(t.originalEndToEndId ? { endToEndId: t.originalEndToEndId } : {}),
        });
      const decided = t.status ? mine : deciding;
      const decision: TransferOutcome = decided?.decision ?? 'UNDETERMINED';
      if (decision !== 'ACCEPTED') namedNotAccepted++;
      if (
        mine &&
        mine.decision !== 'REJECTED' &&
        mine.decision !== 'UNDETERMINED' &&
        deciding?.decision === 'REJECTED'
      )
        notes.push({
          code: 'LEVELS_DISAGREE',
          paymentInformationId: id,
          status: mine.status,
          ...(t.originalEndToEndId ? { endToEndId: t.originalEndToEndId } : {}),
        });
      const e2e = t.originalEndToEndId;
      if (e2e === null) {
        if (decision !== others) {
          notes.push({
            code: 'UNIDENTIFIED_TRANSACTION',
            paymentInformationId: id,
            ...(t.status ? { status: t.status.code } : {}),
          });
          found.push('UNDETERMINED');
        }
        continue;
      }
      if (!decided)
        notes.push({ code: 'TRANSACTION_WITHOUT_STATUS', paymentInformationId: id, endToEndId: e2e });
      named++;
      if (decision === 'REJECTED') namedRejected++;
      transfers.push({
        endToEndId: e2e,
        instructionId: t.originalInstructionId,
        paymentInformationId: id,
        decision,
        status: decided?.status ?? null,
        decidedAt: decided?.decidedAt ?? null,
        reasons: t.reasons.length > 0 ? t.reasons : (decided?.reasons ?? []),
        amountCents: t.amountCents,
      });
    }
    if (partial && namedNotAccepted === 0) {
      notes.push({ code: 'PARTIAL_WITHOUT_DETAIL', paymentInformationId: id });
      found.push('UNDETERMINED');
    }
    if (partial && namedRejected < rejectedCount(p)) {
      notes.push({ code: 'REJECTED_COUNT_MISMATCH', paymentInformationId: id });
      found.push('UNDETERMINED');
    }
    const allNamed = p.originalNumberOfTransactions !== null && named >= p.originalNumberOfTransactions;
    if (others !== null && !allNamed) {
      found.push(others);
      if (others === 'REJECTED')
        blockRejections.push({
          scope: 'PAYMENT_INFORMATION',
          paymentInformationId: id,
          endToEndId: null,
          status: deciding!.status,
          reasons: deciding!.reasons,
        });
    }
  }

  // The same EndToEndId twice with different outcomes: neither is believed.
  const byId = new Map<string, TransferOutcome>();
  const conflicting = new Set<string>();
  for (const t of transfers) {
    const seen = byId.get(t.endToEndId);
    if (seen !== undefined && seen !== t.decision) conflicting.add(t.endToEndId);
    byId.set(t.endToEndId, t.decision);
  }
  for (const e2e of conflicting) notes.push({ code: 'CONFLICTING_STATUSES', endToEndId: e2e });
  const rejections: Rejection[] = [];
  for (const t of transfers) {
    if (conflicting.has(t.endToEndId)) t.decision = 'UNDETERMINED';
    found.push(t.decision);
    if (t.decision === 'REJECTED')
      rejections.push({
        scope: 'TRANSFER',
        paymentInformationId: t.paymentInformationId,
        endToEndId: t.endToEndId,
        status: t.status!,
        reasons: t.reasons,
      });
  }
  rejections.push(...blockRejections);

  if (report.payments.length === 0 && groupWhole) {
    found.push(groupWhole.decision);
    if (groupWhole.decision === 'REJECTED')
      rejections.push({
        scope: 'FILE',
        paymentInformationId: null,
        endToEndId: null,
        status: groupWhole.status,
        reasons: groupWhole.reasons,
      });
  }
  if (groupPartial) {
    if (!found.some((o) => o !== 'ACCEPTED')) {
      notes.push({ code: 'PARTIAL_WITHOUT_DETAIL' });
      found.push('UNDETERMINED');
    }
    found.push('ACCEPTED');
  }

  const has = (o: TransferOutcome) => found.includes(o);
  let outcome: ReportOutcome;
  if (found.length === 0) {
    notes.push({ code: 'NO_STATUS' });
    outcome = 'UNDETERMINED';
  } else if (has('UNDETERMINED')) outcome = 'UNDETERMINED';
  else if (has('REJECTED')) outcome = has('ACCEPTED') || has('PENDING') ? 'PARTIAL' : 'REJECTED';
  else outcome = has('PENDING') ? 'PENDING' : 'ACCEPTED';
  const fileStatus =
    outcome === 'ACCEPTED' || (outcome === 'PARTIAL' && has('ACCEPTED'))
      ? 'AVAILABLE'
      : outcome === 'REJECTED'
        ? 'UNAVAILABLE'
        : null;

  return {
    reportMessageId: report.messageId,
    reportCreatedAt: report.createdAt,
    originalMessageId: g.messageId,
    outcome,
    fileStatus,
    transfers,
    paymentInformation,
    otherPaymentInformation,
    groupReasons: g.reasons,
    rejections,
    notes,
  };
}

/**
 * The decision for one transfer of the original file: named in the report, else its block's
 * `others`, else `otherPaymentInformation`. null: the report says nothing about it (no change).
 * Meaningful only when the interpretation's outcome is not UNDETERMINED.
 */
export function decisionForTransfer(
  interpretation: StatusInterpretation,
  paymentInformationId: string,
  endToEndId: string,
): TransferOutcome | null {
  const named = interpretation.transfers.find((t) => t.endToEndId === endToEndId);
  if (named) return named.decision;
  const block = interpretation.paymentInformation.find(
    (p) => p.paymentInformationId === paymentInformationId,
  );
  if (block) return block.others;
  return interpretation.otherPaymentInformation;
}

/**
 * Why the bank decided as it did for one transfer: its own reasons, else its block's, else the
 * group's — a reason given once for the whole block or file covers every transfer in it, unless the
 * transfer has its own (decision 0123).
 */
export function reasonsForTransfer(
  interpretation: StatusInterpretation,
  paymentInformationId: string,
  endToEndId: string,
): StatusReason[] {
  const named = interpretation.transfers.find((t) => t.endToEndId === endToEndId);
  const block = interpretation.paymentInformation.find(
    (p) => p.paymentInformationId === paymentInformationId,
  );
  return (
    [named?.reasons ?? [], block?.reasons ?? [], interpretation.groupReasons].find((r) => r.length > 0) ?? []
  );
}
