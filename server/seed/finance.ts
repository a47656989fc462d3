import { addDays, nextTarget2BusinessDay, todayInLisbon } from '../../domain/business-days';
import { caseSettlementAmounts, subscriptionSettlementAmounts } from '../../domain/fees';
import type { SepaBatch, SepaTransaction } from '../../domain/sepa/validate-batch';
import { writePain001 } from '../../domain/sepa/write-pain001';
import { canDownloadSepa, type SepaStatus } from '../../domain/sepa-status';
import type { SettlementStatus } from '../../domain/settlement-status';
import type { Queryable } from '../db/client';
import type { FileStorage } from '../platform/files/storage';
import { storeFile } from '../platform/files/store';
import { type Cell, type Column, insertRows, iso } from './bulk';
import type { SettlementSource } from './cases';
import type { FilePools } from './files';
import { Rng } from './random';
import type { SeededProfessional } from './users';

export interface SeededSettlement {
  id: string;
  professionalId: string;
  referenceMonth: string;
  payableCents: number;
  status: SettlementStatus;
  /** Month index relative to the current one: 0 = this month, 5 = five months ago. */
  age: number;
}

export interface SeededSepaFile {
  id: string;
  msgId: string;
  paymentInfoId: string;
  status: SepaStatus;
  amountCents: number;
  executionDate: string;
  createdAt: number;
  transactions: {
    id: string;
    endToEndId: string;
    amountCents: number;
    creditorName: string;
    creditorIban: string;
  }[];
}

export interface SeededFinance {
  settlements: SeededSettlement[];
  sepaFiles: SeededSepaFile[];
}

const DAY = 86_400_000;
export const MONTHS_OF_SETTLEMENTS = 6;
export const DEBTOR = { name: 'Consultas Online, Lda.', iban: 'PT50003506510000123456714', bic: 'CGDIPTPL' };

// Status by position within a month's age, so every status exists and older months are settled.
const PLAN_BY_AGE: SettlementStatus[][] = [
  ['READY_TO_SETTLE', 'AVAILABLE', 'SETTLED', 'READY_TO_SETTLE', 'REFUNDED', 'AVAILABLE'],
  ['PENDING_TRANSFER', 'SETTLED', 'PENDING_TRANSFER', 'AVAILABLE', 'PENDING_TRANSFER'],
  ['PAID', 'PAID', 'PAID', 'PAID', 'PAID', 'PAID', 'REFUNDED_PAID'],
];

const earliest = (a: string, b: string) => (a < b ? a : b);
const latest = (a: string, b: string) => (a > b ? a : b);

export function monthOf(isoDay: string): string {
  return isoDay.slice(0, 7);
}

function monthsBetween(earlier: string, later: string): number {
  return (
    (Number(later.slice(0, 4)) - Number(earlier.slice(0, 4))) * 12 +
    Number(later.slice(5, 7)) -
    Number(earlier.slice(5, 7))
  );
}

function firstOfNextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
}

const SETTLEMENT_COLUMNS: Column[] = [
  { name: 'id', type: 'uuid' },
  { name: 'professional_id', type: 'uuid' },
  { name: 'case_id', type: 'uuid' },
  { name: 'subscription_payment_id', type: 'uuid' },
  { name: 'reference_month', type: 'text' },
  { name: 'gross_cents', type: 'int' },
  { name: 'fee_cents', type: 'int' },
  { name: 'net_cents', type: 'int' },
  { name: 'adjusted_cents', type: 'int' },
  { name: 'adjustment_note', type: 'text' },
  { name: 'payment_date', type: 'date' },
  { name: 'available_on', type: 'date' },
  { name: 'invoice_file_id', type: 'uuid' },
  { name: 'notes', type: 'text' },
  { name: 'status', type: 'text' },
  { name: 'created_at', type: 'timestamptz' },
  { name: 'updated_at', type: 'timestamptz' },
];

export interface FinanceSeedInput {
  db: Queryable;
  seed: number;
  now: number;
  adminId: string;
  professionals: SeededProfessional[];
  sources: SettlementSource[];
  pools: FilePools;
  /** Where the XML of every file the console offers to download is stored. */
  storage: FileStorage;
}

export async function seedSettlementsAndSepa(input: FinanceSeedInput): Promise<SeededFinance> {
  const { db, now, pools } = input;
  const rng = new Rng(input.seed, 'finance');
  const today = todayInLisbon(new Date(now));
  const thisMonth = monthOf(today);
  const byId = new Map(input.professionals.map((p) => [p.id, p]));
  const counters = [0, 0, 0];
  const settlements: SeededSettlement[] = [];
  const rows: Cell[][] = [];
  const ordered = [...input.sources].sort((a, b) => a.settledAt - b.settledAt || (a.id < b.id ? -1 : 1));
  for (const source of ordered) {
    const referenceMonth = monthOf(todayInLisbon(new Date(source.settledAt)));
    const age = monthsBetween(referenceMonth, thisMonth);
    if (age < 0 || age >= MONTHS_OF_SETTLEMENTS) continue;
    const amounts =
      source.kind === 'case'
        ? caseSettlementAmounts(source.grossCents)
        : subscriptionSettlementAmounts(source.grossCents);
    if (!amounts) continue;
    const professional = byId.get(source.professionalId)!;
    const plan = PLAN_BY_AGE[Math.min(age, 2)]!;
    const planned = plan[counters[Math.min(age, 2)]!++ % plan.length]!;
    // without full payment data a settlement cannot be settled: it waits, whatever its age
    const status: SettlementStatus = professional.complete
      ? planned
      : planned === 'REFUNDED'
        ? 'REFUNDED'
        : age === 0
          ? 'READY_TO_SETTLE'
          : 'AVAILABLE';
    const paymentDate = todayInLisbon(new Date(source.paidAt));
    const released = addDays(paymentDate, 7);
    // funds not yet released wait for a future date; released funds carry the date they were
    const availableOn =
      status === 'READY_TO_SETTLE'
        ? latest(released, addDays(today, rng.int(1, 5)))
        : earliest(released, today);
    const adjusted = rows.length % 17 === 5 && amounts.netCents > 300 ? amounts.netCents - 200 : null;
    const id = rng.uuid();
    const paidOut = status === 'PENDING_TRANSFER' || status === 'PAID' || status === 'REFUNDED_PAID';
    rows.push([
      id,
      source.professionalId,
      source.kind === 'case' ? source.id : null,
      source.kind === 'subscription' ? source.id : null,
      referenceMonth,
      amounts.grossCents,
      amounts.feeCents,
      amounts.netCents,
      adjusted,
      adjusted === null ? null : 'Ajuste: 2,00 € devolvidos ao cliente por atraso na resposta.',
      paymentDate,
      availableOn,
      paidOut || status === 'SETTLED' ? pools.invoices[rows.length % pools.invoices.length]! : null,
      status === 'REFUNDED' || status === 'REFUNDED_PAID' ? 'Reembolso pedido pelo cliente.' : null,
      // PENDING_TRANSFER is stored SETTLED: the live link seedSepaFiles writes makes it so (decision 0119).
      status === 'PENDING_TRANSFER' ? 'SETTLED' : status,
      iso(source.settledAt + DAY),
      iso(Math.min(now, source.settledAt + (age + 1) * 20 * DAY)),
    ]);
    settlements.push({
      id,
      professionalId: source.professionalId,
      referenceMonth,
      payableCents: adjusted ?? amounts.netCents,
      status,
      age,
    });
  }
  await insertRows(db, 'settlements', SETTLEMENT_COLUMNS, rows);
  const sepaFiles = await seedSepaFiles(db, input.storage, rng, now, input.adminId, settlements, byId);
  return { settlements, sepaFiles };
}

interface SepaGroup {
  status: SepaStatus;
  referenceMonth: string;
  settlements: SeededSettlement[];
}

/** Which settlements went into which file, per DESIGN.md §6 and the statuses planned above. */
function sepaGroups(settlements: SeededSettlement[]): SepaGroup[] {
  const groups: SepaGroup[] = [];
  const months = [...new Set(settlements.map((s) => s.referenceMonth))].sort();
  for (const month of months) {
    const inMonth = settlements.filter((s) => s.referenceMonth === month);
    const paid = inMonth.filter((s) => s.status === 'PAID' || s.status === 'REFUNDED_PAID');
    if (paid.length > 0) groups.push({ status: 'PAID', referenceMonth: month, settlements: paid });
    const pending = inMonth.filter((s) => s.status === 'PENDING_TRANSFER');
    const professionals = [...new Set(pending.map((s) => s.professionalId))].sort();
    const handedOver = new Set(professionals.filter((_, i) => i % 2 === 1));
    const generated = pending.filter((s) => !handedOver.has(s.professionalId));
    const available = pending.filter((s) => handedOver.has(s.professionalId));
    if (generated.length > 0)
      groups.push({ status: 'GENERATED', referenceMonth: month, settlements: generated });
    if (available.length > 0)
      groups.push({ status: 'AVAILABLE', referenceMonth: month, settlements: available });
    // settled settlements of last month had been in a file the bank rejected; they are back to SETTLED
    const rejected = inMonth.filter((s) => s.status === 'SETTLED' && s.age === 1);
    if (rejected.length > 0)
      groups.push({ status: 'UNAVAILABLE', referenceMonth: month, settlements: rejected });
  }
  return groups;
}

async function seedSepaFiles(
  db: Queryable,
  storage: FileStorage,
  rng: Rng,
  now: number,
  adminId: string,
  settlements: SeededSettlement[],
  professionals: Map<string, SeededProfessional>,
): Promise<SeededSepaFile[]> {
  const files: SeededSepaFile[] = [];
  const fileRows: Cell[][] = [];
  const transactionRows: Cell[][] = [];
  const linkRows: Cell[][] = [];
  const xmlToStore: { row: number; messageId: string; at: Date; batch: SepaBatch }[] = [];
  const today = todayInLisbon(new Date(now));
  sepaGroups(settlements).forEach((group, index) => {
    const id = rng.uuid();
    const msgId = `PAG-${group.referenceMonth.replace('-', '')}-${String(index + 1).padStart(3, '0')}`;
    const paymentInfoId = `${msgId}-L1`;
    const createdDay = [
      addDays(firstOfNextMonth(group.referenceMonth), 2 + (index % 3)),
      addDays(today, -1),
    ].sort()[0]!;
    const createdAt = Math.min(now - DAY / 2, Date.parse(`${createdDay}T10:00:00Z`));
    const executionDate = nextTarget2BusinessDay(addDays(createdDay, 1));
    const byProfessional = new Map<string, SeededSettlement[]>();
    for (const s of group.settlements)
      byProfessional.set(s.professionalId, [...(byProfessional.get(s.professionalId) ?? []), s]);
    const transactions: SeededSepaFile['transactions'] = [];
    const written: SepaTransaction[] = [];
    [...byProfessional.entries()].forEach(([professionalId, own], t) => {
      const professional = professionals.get(professionalId)!;
      const transactionId = rng.uuid();
      const amountCents = own.reduce((sum, s) => sum + s.payableCents, 0);
      const endToEndId = `${msgId}-${String(t + 1).padStart(4, '0')}`;
      transactions.push({
        id: transactionId,
        endToEndId,
        amountCents,
        creditorName: professional.fullName,
        creditorIban: professional.iban!,
      });
      const remittance = `Consultas ${group.referenceMonth}: ${own.length} liquidacao(oes)`;
      written.push({
        endToEndId,
        creditorName: professional.fullName,
        creditorIban: professional.iban!,
        creditorBic: professional.bic,
        amountCents,
        remittanceInformation: remittance,
      });
      transactionRows.push([
        transactionId,
        id,
        endToEndId,
        professionalId,
        amountCents,
        professional.fullName,
        professional.iban,
        professional.bic,
        remittance,
      ]);
      for (const s of own)
        linkRows.push([transactionId, id, s.id, s.payableCents, group.status !== 'UNAVAILABLE']);
    });
    const amountCents = transactions.reduce((sum, t) => sum + t.amountCents, 0);
    // The console offers a GENERATED file's XML for download: it must exist, written as a generation writes it.
    if (canDownloadSepa(group.status)) {
      xmlToStore.push({
        row: fileRows.length,
        messageId: msgId,
        at: new Date(createdAt),
        batch: {
          messageId: msgId,
          paymentInformationId: paymentInfoId,
          executionDate,
          batchBooking: true,
          debtor: DEBTOR,
          transactions: written,
        },
      });
    }
    fileRows.push([
      id,
      msgId,
      paymentInfoId,
      amountCents,
      transactions.length,
      group.status,
      group.status === 'UNAVAILABLE'
        ? 'Rejeitado pelo banco: conta do ordenante sem provisão na data-valor.'
        : null,
      group.referenceMonth,
      executionDate,
      DEBTOR.name,
      DEBTOR.iban,
      DEBTOR.bic,
      adminId,
      iso(createdAt),
      iso(createdAt),
      null,
    ]);
    files.push({
      id,
      msgId,
      paymentInfoId,
      status: group.status,
      amountCents,
      executionDate,
      createdAt,
      transactions,
    });
  });
  for (const { row, messageId, at, batch } of xmlToStore) {
    const xml = writePain001(batch, { now: at });
    if (!xml.ok)
      throw new Error(`seeded SEPA file ${messageId} is not writable: ${JSON.stringify(xml.errors)}`);
    fileRows[row]![fileRows[row]!.length - 1] = await storeFile(db, storage, {
      content: new TextEncoder().encode(xml.xml),
      originalName: `${messageId}.xml`,
      contentType: 'application/xml',
      inTransaction: true,
    });
  }
  await insertRows(
    db,
    'sepa_files',
    [
      { name: 'id', type: 'uuid' },
      { name: 'msg_id', type: 'text' },
      { name: 'payment_info_id', type: 'text' },
      { name: 'amount_cents', type: 'bigint' },
      { name: 'transaction_count', type: 'int' },
      { name: 'status', type: 'text' },
      { name: 'notes', type: 'text' },
      { name: 'reference_month', type: 'text' },
      { name: 'execution_date', type: 'date' },
      { name: 'debtor_name', type: 'text' },
      { name: 'debtor_iban', type: 'text' },
      { name: 'debtor_bic', type: 'text' },
      { name: 'created_by', type: 'uuid' },
      { name: 'created_at', type: 'timestamptz' },
      { name: 'updated_at', type: 'timestamptz' },
      { name: 'xml_file_id', type: 'uuid' },
    ],
    fileRows,
  );
  await insertRows(
    db,
    'sepa_transactions',
    [
      { name: 'id', type: 'uuid' },
      { name: 'sepa_file_id', type: 'uuid' },
      { name: 'end_to_end_id', type: 'text' },
      { name: 'professional_id', type: 'uuid' },
      { name: 'amount_cents', type: 'bigint' },
      { name: 'creditor_name', type: 'text' },
      { name: 'creditor_iban', type: 'text' },
      { name: 'creditor_bic', type: 'text' },
      { name: 'remittance_information', type: 'text' },
    ],
    transactionRows,
  );
  await insertRows(
    db,
    'sepa_transaction_settlements',
    [
      { name: 'sepa_transaction_id', type: 'uuid' },
      { name: 'sepa_file_id', type: 'uuid' },
      { name: 'settlement_id', type: 'uuid' },
      { name: 'amount_cents', type: 'int' },
      { name: 'live', type: 'boolean' },
    ],
    linkRows,
  );
  return files;
}
