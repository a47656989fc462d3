import { createHash } from 'node:crypto';
import type { StatementLineStatus as LineStatus } from '../../contract/statuses';
import { addDays, todayInLisbon } from '../../domain/business-days';
import { centsToDecimal } from '../../domain/money';
import { statementLineKeys } from '../../domain/statements/line-key';
import type { Queryable } from '../db/client';
import type { FileStorage } from '../platform/files/storage';
import { storeFile } from '../platform/files/store';
import { type Cell, type Column, insertRows, iso } from './bulk';
import { readDemoPayments, weeklyPayouts } from './demo-payments';
import { DEBTOR, MONTHS_OF_SETTLEMENTS, monthOf, type SeededSepaFile } from './finance';
import { FEMALE_NAMES, MALE_NAMES, SURNAMES } from './portugal';
import { Rng } from './random';

interface Line {
  bankDate: string;
  amountCents: number;
  description: string;
  counterpartyName: string | null;
  counterpartyIban: string | null;
  endToEndId: string | null;
  batchId: string | null;
  bankReference: string | null;
  kind: 'transfer' | 'return' | 'fee' | 'other';
  returnReason: string | null;
  status: LineStatus;
  matchMethod: 'REFERENCE' | 'AMOUNT_COUNTERPARTY_DATE' | 'MANUAL' | null;
  sepaFileId: string | null;
  sepaTransactionId: string | null;
  payoutId: string | null;
  invoiceId: string | null;
  notes: string | null;
  /** A suggestion's score, as the matcher keeps it (0–1); null for a link already decided. */
  score: number | null;
}

const BLANK: Omit<Line, 'bankDate' | 'amountCents' | 'description' | 'kind' | 'status'> = {
  counterpartyName: null,
  counterpartyIban: null,
  endToEndId: null,
  batchId: null,
  bankReference: null,
  returnReason: null,
  matchMethod: null,
  sepaFileId: null,
  sepaTransactionId: null,
  payoutId: null,
  invoiceId: null,
  notes: null,
  score: null,
};

export interface StatementSeedInput {
  db: Queryable;
  seed: number;
  now: number;
  adminId: string;
  storage: FileStorage;
  sepaFiles: SeededSepaFile[];
}

export interface SeededStatements {
  files: number;
  lines: number;
  payouts: number;
  invoices: number;
}

export async function seedStatements(input: StatementSeedInput): Promise<SeededStatements> {
  const { db, now } = input;
  const rng = new Rng(input.seed, 'statements');
  const today = todayInLisbon(new Date(now));
  const start = addDays(today, -31 * MONTHS_OF_SETTLEMENTS);
  const lines: Line[] = [];

  for (const file of input.sepaFiles) {
    if (file.status !== 'PAID' && file.status !== 'UNAVAILABLE') continue;
    lines.push({
      ...BLANK,
      bankDate: file.executionDate,
      amountCents: -file.amountCents,
      description: `TRF SEPA LOTE ${file.paymentInfoId}`,
      batchId: file.paymentInfoId,
      bankReference: `BR${rng.digits(12)}`,
      kind: 'transfer',
      status: file.status === 'PAID' ? 'MATCHED' : 'DISCREPANCY',
      matchMethod: 'REFERENCE',
      sepaFileId: file.id,
      notes: file.status === 'PAID' ? null : 'Lote debitado e devolvido: ver devoluções AC04.',
    });
    if (file.status === 'UNAVAILABLE') {
      for (const t of file.transactions) {
        lines.push({
          ...BLANK,
          bankDate: addDays(file.executionDate, 2),
          amountCents: t.amountCents,
          description: `DEVOLUCAO TRF SEPA ${t.endToEndId}`,
          counterpartyName: t.creditorName,
          counterpartyIban: t.creditorIban,
          endToEndId: t.endToEndId,
          batchId: file.paymentInfoId,
          bankReference: `RT${rng.digits(12)}`,
          kind: 'return',
          returnReason: 'AC04',
          status: 'MATCHED',
          matchMethod: 'REFERENCE',
          sepaTransactionId: t.id,
        });
      }
    }
  }

  // The provider's weekly payouts pay what the customers paid (fees and refunds taken): the same plan
  // writes the demo's Stripe report (source-files.ts), so the two agree.
  const payoutDays: string[] = [];
  for (let day = start; day < today; day = addDays(day, 7)) payoutDays.push(day);
  const payoutRows: Cell[][] = [];
  for (const [week, payout] of weeklyPayouts(await readDemoPayments(db), payoutDays).entries()) {
    const day = payout.date;
    const amountCents = payout.netCents;
    const id = rng.uuid();
    const providerId = `po_${rng.uuid().replace(/-/g, '').slice(0, 24)}`;
    payoutRows.push([id, providerId, amountCents, day]);
    if (addDays(day, 7) >= today) continue; // the newest payout has not reached the bank yet
    const suggested = week % 8 === 3;
    const discrepancy = week % 8 === 6;
    lines.push({
      ...BLANK,
      bankDate: addDays(day, 1),
      amountCents: discrepancy ? amountCents - 37 : amountCents,
      description: suggested
        ? 'TRF CRED SEPA STRIPE TECHNOLOGY EUROPE'
        : `TRF CRED SEPA STRIPE ${providerId}`,
      counterpartyName: 'Stripe Technology Europe Ltd',
      counterpartyIban: 'IE64STRP99000000123456',
      bankReference: suggested ? null : providerId,
      kind: 'transfer',
      status: suggested ? 'SUGGESTED' : discrepancy ? 'DISCREPANCY' : 'MATCHED',
      matchMethod: suggested ? 'AMOUNT_COUNTERPARTY_DATE' : 'REFERENCE',
      payoutId: id,
      notes: discrepancy ? 'Diferença de 0,37 € face ao payout: comissão do fornecedor?' : null,
      // Each week's payout has an amount of its own, so line and payout are each other's only best:
      // the score the matcher gives such a pair (docs/decisions/0142), which "score ≥ 95" then lists.
      score: suggested ? 0.95 : null,
    });
  }

  const invoiceRows: Cell[][] = [];
  for (let month = 0; month < MONTHS_OF_SETTLEMENTS; month++) {
    const monthStart = `${monthOf(addDays(today, -31 * month))}-05`;
    if (monthStart >= today) continue;
    const invoiceId = rng.uuid();
    invoiceRows.push([invoiceId, `FT 2026/${String(100 + month).padStart(4, '0')}`, 2990, monthStart]);
    lines.push({
      ...BLANK,
      bankDate: addDays(monthStart, 3),
      amountCents: -2990,
      description: `DD INVOICEXPRESS FT 2026/${String(100 + month).padStart(4, '0')}`,
      counterpartyName: 'InvoiceXpress',
      kind: 'transfer',
      status: 'MATCHED',
      matchMethod: 'REFERENCE',
      invoiceId,
    });
    lines.push({
      ...BLANK,
      bankDate: addDays(monthStart, 20) < today ? addDays(monthStart, 20) : monthStart,
      amountCents: -750,
      description: 'COMISSAO DE MANUTENCAO DE CONTA',
      kind: 'fee',
      status: 'IGNORED',
      notes: 'Comissão bancária: sem contrapartida.',
    });
    const name = `${rng.pick([...FEMALE_NAMES, ...MALE_NAMES])} ${rng.pick(SURNAMES)}`;
    lines.push({
      ...BLANK,
      bankDate: addDays(monthStart, 9) < today ? addDays(monthStart, 9) : monthStart,
      amountCents: rng.int(10, 200) * 100,
      description: `TRF DE ${name.toUpperCase()}`,
      counterpartyName: name,
      kind: 'transfer',
      status: 'UNMATCHED',
    });
  }

  await insertRows(
    db,
    'provider_payouts',
    [
      { name: 'id', type: 'uuid' },
      { name: 'provider_payout_id', type: 'text' },
      { name: 'amount_cents', type: 'bigint' },
      { name: 'payout_date', type: 'date' },
    ],
    payoutRows,
  );
  await insertRows(
    db,
    'provider_invoices',
    [
      { name: 'id', type: 'uuid' },
      { name: 'provider_invoice_id', type: 'text' },
      { name: 'amount_cents', type: 'bigint' },
      { name: 'invoice_date', type: 'date' },
    ],
    invoiceRows,
  );
  const importable = lines
    .filter((l) => l.bankDate < today)
    .sort((a, b) => (a.bankDate < b.bankDate ? -1 : a.bankDate > b.bankDate ? 1 : 0));
  const files = await writeStatementFiles(input, rng, importable, now);
  return { files, lines: importable.length, payouts: payoutRows.length, invoices: invoiceRows.length };
}

const LINE_COLUMNS: Column[] = [
  { name: 'id', type: 'uuid' },
  { name: 'statement_file_id', type: 'uuid' },
  { name: 'statement_number', type: 'smallint' },
  { name: 'line_number', type: 'int' },
  { name: 'dedup_key', type: 'text' },
  { name: 'bank_amount_cents', type: 'bigint' },
  { name: 'bank_date', type: 'date' },
  { name: 'value_date', type: 'date' },
  { name: 'transaction_date', type: 'date' },
  { name: 'description', type: 'text' },
  { name: 'counterparty_name', type: 'text' },
  { name: 'counterparty_iban', type: 'text' },
  { name: 'end_to_end_id', type: 'text' },
  { name: 'batch_id', type: 'text' },
  { name: 'bank_reference', type: 'text' },
  { name: 'kind', type: 'text' },
  { name: 'return_reason', type: 'text' },
  { name: 'status', type: 'text' },
  { name: 'match_method', type: 'text' },
  { name: 'notes', type: 'text' },
  { name: 'imported_at', type: 'timestamptz' },
  { name: 'updated_at', type: 'timestamptz' },
];

const MATCH_COLUMNS: Column[] = [
  { name: 'statement_line_id', type: 'uuid' },
  { name: 'kind', type: 'text' },
  { name: 'sepa_file_id', type: 'uuid' },
  { name: 'sepa_transaction_id', type: 'uuid' },
  { name: 'payout_id', type: 'uuid' },
  { name: 'invoice_id', type: 'uuid' },
  { name: 'role', type: 'text' },
  { name: 'state', type: 'text' },
  { name: 'allocated_cents', type: 'bigint' },
  { name: 'score', type: 'real' },
];

/** The line's one counterpart as a statement_line_matches row (migration 0022), without line and amount. */
function linkOf(l: Line): Cell[] | null {
  const state = l.status === 'SUGGESTED' ? 'SUGGESTED' : 'MATCHED';
  if (l.sepaFileId) return ['SEPA_FILE', l.sepaFileId, null, null, null, 'PAYMENT', state];
  if (l.sepaTransactionId)
    return [
      'SEPA_TRANSFER',
      null,
      l.sepaTransactionId,
      null,
      null,
      l.kind === 'return' ? 'RETURN' : 'PAYMENT',
      state,
    ];
  if (l.payoutId) return ['PAYOUT', null, null, l.payoutId, null, 'PAYMENT', state];
  if (l.invoiceId) return ['INVOICE', null, null, null, l.invoiceId, 'PAYMENT', state];
  return null;
}

/** One CSV statement per calendar month, as a Portuguese bank exports it, stored as a real file. */
async function writeStatementFiles(
  input: StatementSeedInput,
  rng: Rng,
  lines: Line[],
  now: number,
): Promise<number> {
  const months = [...new Set(lines.map((l) => monthOf(l.bankDate)))].sort();
  const fileRows: Cell[][] = [];
  const bankStatementRows: Cell[][] = [];
  const lineRows: Cell[][] = [];
  const historyRows: Cell[][] = [];
  const matchRows: Cell[][] = [];
  let balance = 2_500_000;
  for (const month of months) {
    const own = lines.filter((l) => monthOf(l.bankDate) === month);
    const opening = balance;
    const csv = [
      'Extrato de conta;;;;',
      `Conta;${DEBTOR.iban};;;`,
      'Data Mov.;Data Valor;Descritivo;Montante;Saldo',
    ];
    for (const l of own) {
      balance += l.amountCents;
      const [y, m, d] = l.bankDate.split('-');
      csv.push(
        `${d}-${m}-${y};${d}-${m}-${y};${l.description};${centsToDecimal(l.amountCents).replace('.', ',')};${centsToDecimal(balance).replace('.', ',')}`,
      );
    }
    const content = Buffer.from(`${csv.join('\r\n')}\r\n`, 'utf8');
    const sha256 = createHash('sha256').update(content).digest('hex');
    const fileId = await storeFile(input.db, input.storage, {
      id: rng.uuid(),
      content,
      originalName: `extrato-${month}.csv`,
      contentType: 'text/csv',
    });
    const statementId = rng.uuid();
    const importedAt = Math.min(now - 3_600_000, Date.parse(`${addDays(`${month}-28`, 6)}T09:00:00Z`));
    fileRows.push([
      statementId,
      fileId,
      `extrato-${month}.csv`,
      'CSV',
      sha256,
      DEBTOR.iban,
      opening,
      balance,
      own.length,
      input.adminId,
      iso(importedAt),
    ]);
    // Each file is one statement of the account (docs/decisions/0121); its id is the file's, so the
    // seed's random sequence, and with it every other seeded value, is unchanged.
    bankStatementRows.push([
      statementId,
      statementId,
      0,
      DEBTOR.iban,
      'EUR',
      own[0]!.bankDate,
      own[own.length - 1]!.bankDate,
      opening,
      balance,
      true,
      own.length,
      own.length,
    ]);
    // The rule an import applies (domain/statements/line-key.ts); value date = booking date here.
    const keys = statementLineKeys(
      DEBTOR.iban,
      own.map((l) => ({ ...l, bookingDate: l.bankDate, valueDate: l.bankDate })),
    );
    own.forEach((l, index) => {
      const id = rng.uuid();
      const changedAt = importedAt + 60_000;
      lineRows.push([
        id,
        statementId,
        0,
        index + 1,
        keys[index]!,
        l.amountCents,
        l.bankDate,
        l.bankDate,
        l.bankDate,
        l.description,
        l.counterpartyName,
        l.counterpartyIban,
        l.endToEndId,
        l.batchId,
        l.bankReference,
        l.kind,
        l.returnReason,
        l.status,
        l.matchMethod,
        l.notes,
        iso(importedAt),
        iso(l.status === 'UNMATCHED' ? importedAt : changedAt),
      ]);
      const link = linkOf(l);
      if (link) matchRows.push([id, ...link, Math.abs(l.amountCents), l.score]);
      historyRows.push([
        id,
        input.adminId,
        'IMPORTED',
        null,
        JSON.stringify({ status: 'UNMATCHED' }),
        iso(importedAt),
      ]);
      if (l.status !== 'UNMATCHED') {
        // the matcher acts alone; ignoring a line is a person's decision
        historyRows.push([
          id,
          l.status === 'IGNORED' ? input.adminId : null,
          l.status,
          JSON.stringify({ status: 'UNMATCHED' }),
          JSON.stringify({ status: l.status, notes: l.notes }),
          iso(changedAt),
        ]);
      }
    });
  }
  await insertRows(
    input.db,
    'statement_files',
    [
      { name: 'id', type: 'uuid' },
      { name: 'file_id', type: 'uuid' },
      { name: 'file_name', type: 'text' },
      { name: 'format', type: 'text' },
      { name: 'sha256', type: 'text' },
      { name: 'account_iban', type: 'text' },
      { name: 'opening_balance_cents', type: 'bigint' },
      { name: 'closing_balance_cents', type: 'bigint' },
      { name: 'line_count', type: 'int' },
      { name: 'uploaded_by', type: 'uuid' },
      { name: 'imported_at', type: 'timestamptz' },
    ],
    fileRows,
  );
  await insertRows(
    input.db,
    'bank_statements',
    [
      { name: 'id', type: 'uuid' },
      { name: 'statement_file_id', type: 'uuid' },
      { name: 'number', type: 'smallint' },
      { name: 'account_iban', type: 'text' },
      { name: 'currency', type: 'text' },
      { name: 'period_start', type: 'date' },
      { name: 'period_end', type: 'date' },
      { name: 'opening_balance_cents', type: 'bigint' },
      { name: 'closing_balance_cents', type: 'bigint' },
      { name: 'balance_consistent', type: 'boolean' },
      { name: 'entry_count', type: 'int' },
      { name: 'line_count', type: 'int' },
    ],
    bankStatementRows,
  );
  await insertRows(input.db, 'statement_lines', LINE_COLUMNS, lineRows);
  await insertRows(input.db, 'statement_line_matches', MATCH_COLUMNS, matchRows);
  await insertRows(
    input.db,
    'statement_line_history',
    [
      { name: 'statement_line_id', type: 'uuid' },
      { name: 'actor_id', type: 'uuid' },
      { name: 'action', type: 'text' },
      { name: 'before', type: 'jsonb' },
      { name: 'after', type: 'jsonb' },
      { name: 'created_at', type: 'timestamptz' },
    ],
    historyRows,
  );
  return fileRows.length;
}
