import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import type { sepaDryRunSchema, sepaGenerateBodySchema, sepaGeneratedSchema } from '../../contract/sepa';
import { addDays, nextTarget2BusinessDay, todayInLisbon } from '../../domain/business-days';
import type { SepaBatch, SepaTransaction } from '../../domain/sepa/validate-batch';
import { prepareBatch } from '../../domain/sepa/validate-batch';
import { writePain001 } from '../../domain/sepa/write-pain001';
import type { SepaConfig } from '../config';
import type { Database, Queryable } from '../db/client';
import { painSchemaErrors, preparePainSchema } from '../pain-schema';
import { recordAudit } from '../platform/audit';
import type { FileStorage } from '../platform/files/storage';
import { storeFile } from '../platform/files/store';
import { type IdempotentRequest, previousAnswer, storeAnswer } from '../platform/idempotency';
import type { Actor } from '../platform/mutation';
import { nextTurn } from '../platform/next-turn';
import { refuse } from '../platform/refusal';
import {
  type DoctorCandidate,
  doctorCandidates,
  exclusionOf,
  RECOVERY_OUTSTANDING,
  type SepaExclusion,
  WAITING_FOR_FILE,
} from './sepa-candidates';
import { sepaFileSummary } from './sepa-files';
import { isSecondLiveLink } from './settlement-status-sql';
import { PAYABLE_SQL } from './settlements';

export type SepaGenerateInput = z.output<typeof sepaGenerateBodySchema>;
export type SepaDryRun = z.infer<typeof sepaDryRunSchema>;
export type SepaGenerated = z.infer<typeof sepaGeneratedSchema>;

export const PAIN001_XSD = fileURLToPath(
  new URL('../../domain/sepa/xsd/pain.001.001.03.xsd', import.meta.url),
);

/**
 * The claim's audit action. Migration 0025's `audit_ids_naming` finds a settlement's claims by it
 * (through the file's links), so it is written there too.
 */
const CLAIM_ACTION = 'settlement.included-in-sepa';

/**
 * Compiles the pain.001 XSD validator (~1.4 s of CPU once per process, docs/decisions/0099). The server
 * awaits it before it listens, so neither a generation nor any other request waits for it.
 */
export const prepareSepaGeneration = (): Promise<void> => preparePainSchema(PAIN001_XSD);

/** Every generation waits for the one before: two files can never take the same settlement. */
const GENERATION_LOCK_KEY = 731_020_011;

/**
 * Waits for any SEPA generation in progress and keeps the next one out until the caller's transaction
 * ends: for a change that puts settlements or recoveries back into a file (a return's undo), which
 * would otherwise race a claim of the same rows under locks both share (docs/decisions/0119).
 */
export const excludeSepaGenerations = (tx: Queryable) =>
  tx.query('SELECT pg_advisory_xact_lock($1)', [GENERATION_LOCK_KEY]);

export interface SepaDeps {
  sepa: SepaConfig;
  storage: FileStorage;
}

interface Plan {
  referenceMonth: string;
  executionDate: string;
  paid: (DoctorCandidate & { transferCents: number; recoveredCents: number })[];
  excluded: SepaExclusion[];
}

/**
 * The file's execution date: the one asked for, or tomorrow, moved to a TARGET2 business day
 * (Europe/Lisbon). A day before today is refused: a bank would reject the file.
 */
function executionDateFor(requested: string | undefined, now: Date): string {
  const today = todayInLisbon(now);
  if (requested !== undefined && requested < today)
    throw refuse('SEPA_EXECUTION_DATE_IN_PAST', { field: 'executionDate' });
  return nextTarget2BusinessDay(requested ?? addDays(today, 1));
}

const remittance = (referenceMonth: string, count: number) =>
  `Consultas ${referenceMonth}: ${count} liquidacao(oes)`;

function batchOf(
  plan: Pick<Plan, 'executionDate' | 'paid' | 'referenceMonth'>,
  sepa: SepaConfig,
  messageId: string,
): SepaBatch {
  return {
    messageId,
    paymentInformationId: `${messageId}-P1`,
    executionDate: plan.executionDate,
    batchBooking: sepa.batchBooking,
    debtor: sepa.debtor,
    transactions: plan.paid.map(
      (doctor, index): SepaTransaction => ({
        endToEndId: `${messageId}-${String(index + 1).padStart(5, '0')}`,
        creditorName: doctor.fullName ?? '',
        creditorIban: doctor.iban ?? '',
        creditorBic: doctor.bic,
        amountCents: doctor.transferCents,
        remittanceInformation: remittance(plan.referenceMonth, doctor.settlementCount),
      }),
    ),
  };
}

/** Who is paid and who is not, and why: the dry run's answer and the generation's plan. */
async function plan(db: Queryable, sepa: SepaConfig, input: SepaGenerateInput, now: Date): Promise<Plan> {
  const executionDate = executionDateFor(input.executionDate, now);
  const candidates = await doctorCandidates(db, input.referenceMonth, input.professionalIds);
  const excluded: SepaExclusion[] = [];
  let paid: Plan['paid'] = [];
  for (const candidate of candidates) {
    if (candidate.decision.pay) paid.push({ ...candidate, ...candidate.decision });
    else excluded.push(exclusionOf(candidate, candidate.decision.reason));
  }
  // The EPC rules on each doctor's bank data (the writer's own checks): a doctor they refuse is
  // excluded with the reason rather than failing everyone's file.
  if (paid.length > 0) {
    const checked = prepareBatch(batchOf({ ...input, executionDate, paid }, sepa, 'DRYRUN'), {
      today: todayInLisbon(now),
    });
    if (!checked.ok) {
      const refused = new Set(
        checked.errors.flatMap((error) => (error.index === undefined ? [] : [error.index])),
      );
      if (refused.size < checked.errors.length && checked.errors.some((e) => e.index === undefined))
        throw new Error(`the SEPA configuration is refused: ${JSON.stringify(checked.errors)}`);
      for (const index of refused) excluded.push(exclusionOf(paid[index]!, 'INVALID_BANK_DATA'));
      paid = paid.filter((_, index) => !refused.has(index));
    }
  }
  return { referenceMonth: input.referenceMonth, executionDate, paid, excluded };
}

export async function dryRunSepa(
  db: Queryable,
  sepa: SepaConfig,
  input: SepaGenerateInput,
  now: Date,
): Promise<SepaDryRun> {
  // A server started without it (tests, tools) compiles the XSD validator now (~1 s once per
  // process): a generation usually follows its dry run and should not pay it under its lock.
  void prepareSepaGeneration();
  const p = await plan(db, sepa, input, now);
  const settledCents = p.paid.reduce((sum, d) => sum + d.owedCents, 0);
  const recoveredCents = p.paid.reduce((sum, d) => sum + d.recoveredCents, 0);
  return {
    referenceMonth: p.referenceMonth,
    executionDate: p.executionDate,
    transferCount: p.paid.length,
    settlementCount: p.paid.reduce((sum, d) => sum + d.settlementCount, 0),
    settledCents,
    recoveredCents,
    totalCents: settledCents - recoveredCents,
    currency: 'EUR',
    excluded: p.excluded,
  };
}

const byDoctor = <T extends { professional_id: string; payable_cents: number | string }>(rows: T[]) => {
  const sums = new Map<string, { count: number; cents: number; rows: T[] }>();
  for (const row of rows) {
    const sum = sums.get(row.professional_id) ?? { count: 0, cents: 0, rows: [] };
    sum.count++;
    sum.cents += Number(row.payable_cents);
    sum.rows.push(row);
    sums.set(row.professional_id, sum);
  }
  return sums;
};

/**
 * Generates one pain.001.001.03 file for the month (DESIGN §6), in one transaction: the plan, the
 * file's rows, the settlements claimed SETTLED → PENDING_TRANSFER by their links (audited), the
 * recoveries deducted, the file written, schema-checked and stored, and the answer kept under the
 * idempotency key.
 * Generations are serialised by a transaction lock, so concurrent requests — on any server process —
 * see each other's result: one file, each settlement in it once. Nothing to pay: NO_SEPA_CREATED.
 */
export function generateSepaFile(
  db: Database,
  deps: SepaDeps,
  actor: Actor,
  input: SepaGenerateInput,
  idempotency: IdempotentRequest,
): Promise<SepaGenerated> {
  // mutation()'s rule written out: the change and its audit row in one transaction. Not mutation()
  // itself, because a replayed answer changes nothing and so must write no audit row either.
  return db.transaction(async (tx) => {
    await excludeSepaGenerations(tx);
    // Each statement here is planned as expensive (100,000 rows) and JIT-compiled for ~0.2 s that
    // its run never wins back (docs/decisions/0089).
    await tx.query('SET LOCAL jit = off');
    const previous = await previousAnswer<SepaGenerated>(tx, idempotency);
    if (previous) return previous;
    const { result, after } = await writeFile(tx, deps, actor, input);
    await recordAudit(tx, {
      actorId: actor.userId,
      action: 'sepa.generated',
      entityType: 'sepa_file',
      entityId: result.file.id,
      after,
      at: actor.at,
    });
    await storeAnswer(tx, idempotency, result);
    return result;
  });
}

/**
 * The pain.001 of the plan, checked against the XSD. It first gives the event loop a turn, so the
 * statement started beside it is on its way to the database before this CPU work begins.
 */
async function schemaValidFile(plan: Plan, sepa: SepaConfig, messageId: string, now: Date) {
  await nextTurn();
  const written = writePain001(batchOf(plan, sepa, messageId), { now });
  if (!written.ok) throw new Error(`pain.001 refused after planning: ${JSON.stringify(written.errors)}`);
  const schemaErrors = await painSchemaErrors(written.xml, PAIN001_XSD);
  if (schemaErrors.length > 0) throw new Error(`generated pain.001 is not schema-valid: ${schemaErrors[0]}`);
  return written;
}

async function writeFile(
  tx: Queryable,
  deps: SepaDeps,
  actor: Actor,
  input: SepaGenerateInput,
): Promise<{ result: SepaGenerated; after: unknown }> {
  const p = await plan(tx, deps.sepa, input, actor.at);
  if (p.paid.length === 0) throw refuse('NO_SEPA_CREATED');
  const { rows: numbered } = await tx.query<{ n: string }>(`SELECT nextval('sepa_file_number')::text AS n`);
  const messageId = `SEPA-${p.referenceMonth}-${numbered[0]!.n.padStart(6, '0')}`;
  const fileId = randomUUID();
  const doctorIds = p.paid.map((d) => d.professionalId);
  const batch = batchOf(p, deps.sepa, messageId);
  const transactionIds = p.paid.map(() => randomUUID());
  const settledCents = p.paid.reduce((sum, d) => sum + d.owedCents, 0);
  const recoveredCents = p.paid.reduce((sum, d) => sum + d.recoveredCents, 0);

  // A settlement or recovery put in a file meanwhile by a writer the generation lock does not keep out
  // (a return's undo takes it): the unique key refuses the second live link, and the plan is stale.
  const unlessTakenMeanwhile = (error: unknown) => {
    throw isSecondLiveLink(error) ? refuse('SEPA_CHANGED_RETRY') : error;
  };

  // The file and its transfers as planned (the stored XML is attached once written), so the claim
  // can link the settlements to them.
  await tx.query(
    `INSERT INTO sepa_files (id, msg_id, payment_info_id, amount_cents, transaction_count, reference_month,
                             execution_date, debtor_name, debtor_iban, debtor_bic, batch_booking,
                             created_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13)`,
    [
      fileId,
      messageId,
      batch.paymentInformationId,
      settledCents - recoveredCents,
      p.paid.length,
      p.referenceMonth,
      p.executionDate,
      deps.sepa.debtor.name,
      deps.sepa.debtor.iban,
      deps.sepa.debtor.bic,
      deps.sepa.batchBooking,
      actor.userId,
      actor.at,
    ],
  );
  await tx.query(
    `INSERT INTO sepa_transactions (id, sepa_file_id, end_to_end_id, professional_id, amount_cents,
                                    creditor_name, creditor_iban, creditor_bic, remittance_information)
     SELECT t.id, $1, t.e2e, t.professional_id, t.amount, t.name, t.iban, t.bic, t.remittance
       FROM unnest($2::uuid[], $3::text[], $4::uuid[], $5::bigint[], $6::text[], $7::text[], $8::text[], $9::text[])
            AS t(id, e2e, professional_id, amount, name, iban, bic, remittance)`,
    [
      fileId,
      transactionIds,
      batch.transactions.map((t) => t.endToEndId),
      doctorIds,
      batch.transactions.map((t) => t.amountCents),
      batch.transactions.map((t) => t.creditorName),
      batch.transactions.map((t) => t.creditorIban),
      batch.transactions.map((t) => t.creditorBic ?? null),
      batch.transactions.map((t) => t.remittanceInformation ?? ''),
    ],
  );

  // The claim: each settlement still waiting is linked to its doctor's transfer, which makes it
  // PENDING_TRANSFER (decision 0119) — no settlement row is written. The rows are locked FOR KEY
  // SHARE in id order: a refund, adjustment or delete holding one (FOR UPDATE) is waited for, and the
  // row is then re-checked, so one that left SETTLED drops out and a changed amount is linked as it is
  // now; either way the sums below differ from the plan and nothing is kept. The doctors' outstanding
  // recoveries are locked by the same statement, in the same id order: locked apart, a bulk delete
  // taking both kinds of row in id order could wait for this and this for it (a deadlock, a 500).
  // The file is written from the plan and schema-checked meanwhile: the server's CPU and
  // PostgreSQL's work side by side (docs/decisions/0089).
  const [{ rows: linked }, written] = await Promise.all([
    tx
      .query<{ sepa_transaction_id: string; settlement_id: string; payable_cents: number }>(
        `INSERT INTO sepa_transaction_settlements (sepa_transaction_id, sepa_file_id, settlement_id, amount_cents)
         SELECT t.id, $1, s.id, ${PAYABLE_SQL}
           FROM (SELECT s.id, s.professional_id, s.status, s.adjusted_cents, s.net_cents
                   FROM settlements s
                  WHERE s.id = ANY(ARRAY(
                          SELECT s.id FROM settlements s
                           WHERE s.reference_month = $4 AND s.professional_id = ANY($2::uuid[]) AND ${WAITING_FOR_FILE}
                          UNION ALL
                          SELECT r.id FROM settlements r
                           WHERE r.professional_id = ANY($2::uuid[]) AND ${RECOVERY_OUTSTANDING}))
                  ORDER BY s.id
                 OFFSET 0 -- keeps the outer status test out of here: recoveries must be locked too
                    FOR KEY SHARE) s
           JOIN unnest($2::uuid[], $3::uuid[]) AS t(professional_id, id) ON t.professional_id = s.professional_id
          WHERE s.status = 'SETTLED'
         RETURNING sepa_transaction_id, settlement_id, amount_cents AS payable_cents`,
        [fileId, doctorIds, transactionIds, p.referenceMonth],
      )
      .catch(unlessTakenMeanwhile),
    schemaValidFile(p, deps.sepa, messageId, actor.at),
  ]);
  const doctorOfTransfer = new Map<string, string>(
    transactionIds.map((id, index) => [id, doctorIds[index]!]),
  );
  const claimed = byDoctor(
    linked.map((link) => ({ ...link, professional_id: doctorOfTransfer.get(link.sepa_transaction_id)! })),
  );
  // Locked by the claim already; one refunded since would be new here and differ from the plan.
  const { rows: recoveryRows } = await tx.query<{
    id: string;
    professional_id: string;
    payable_cents: number;
  }>(
    `SELECT r.id, r.professional_id, coalesce(r.adjusted_cents, r.net_cents) AS payable_cents
       FROM settlements r WHERE r.professional_id = ANY($1::uuid[]) AND ${RECOVERY_OUTSTANDING}
      FOR KEY SHARE OF r`,
    [doctorIds],
  );
  const recovered = byDoctor(recoveryRows);
  for (const doctor of p.paid) {
    const got = claimed.get(doctor.professionalId);
    const back = recovered.get(doctor.professionalId)?.cents ?? 0;
    // Between the plan and the claim another change (a refund, a delete) moved one of these rows.
    if (
      got?.cents !== doctor.owedCents ||
      got.count !== doctor.settlementCount ||
      back !== doctor.recoveredCents
    )
      throw refuse('SEPA_CHANGED_RETRY');
  }
  await recordAudit(tx, {
    actorId: actor.userId,
    action: CLAIM_ACTION,
    entityType: 'sepa_file',
    entityId: fileId,
    // As a settlement's history reads it; the links name each settlement (migration 0025).
    before: { status: 'SETTLED' },
    after: {
      status: 'PENDING_TRANSFER',
      settlementCount: linked.length,
      sepaFileId: fileId,
      msgId: messageId,
    },
    at: actor.at,
  });

  if (
    written.controlSumCents !== settledCents - recoveredCents ||
    written.numberOfTransactions !== p.paid.length ||
    written.paymentInformationId !== batch.paymentInformationId ||
    written.executionDate !== p.executionDate
  )
    throw new Error('pain.001 differs from the planned file');

  const xmlFileId = await storeFile(tx, deps.storage, {
    content: new TextEncoder().encode(written.xml),
    originalName: `${messageId}.xml`,
    contentType: 'application/xml',
    // Under the generation lock: the XML is written in this transaction, never on another connection.
    inTransaction: true,
  });
  await tx.query('UPDATE sepa_files SET xml_file_id = $2 WHERE id = $1', [fileId, xmlFileId]);
  const deductions = { tx: [] as string[], settlement: [] as string[], cents: [] as number[] };
  p.paid.forEach((doctor, index) => {
    for (const row of recovered.get(doctor.professionalId)?.rows ?? []) {
      deductions.tx.push(transactionIds[index]!);
      deductions.settlement.push(row.id);
      deductions.cents.push(Number(row.payable_cents));
    }
  });
  if (deductions.tx.length > 0)
    await tx
      .query(
        `INSERT INTO sepa_transaction_recoveries (sepa_transaction_id, sepa_file_id, settlement_id, amount_cents)
         SELECT t, $1, s, c FROM unnest($2::uuid[], $3::uuid[], $4::int[]) AS u(t, s, c) ORDER BY s`,
        [fileId, deductions.tx, deductions.settlement, deductions.cents],
      )
      .catch(unlessTakenMeanwhile);

  const file = await sepaFileSummary(tx, fileId);
  return {
    result: { file: file!, excluded: p.excluded },
    after: {
      msgId: messageId,
      status: 'GENERATED',
      amountCents: written.controlSumCents,
      transferCount: written.numberOfTransactions,
      settlementCount: linked.length,
      recoveredCents,
      executionDate: written.executionDate,
      referenceMonth: p.referenceMonth,
    },
  };
}
