import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decimalToCents } from '../../domain/money';
import { readPain001 } from '../../domain/sepa/read-pain001';
import { testDatabaseKinds } from '../support/databases';
import { count } from './harness';
import {
  acceptedReport,
  cliSepaCheck,
  expectStatus,
  insertDoctor,
  insertSettlements,
  newIban,
  partialReport,
  payableOf,
  rejectedReport,
  type SepaWorld,
  startSepaWorld,
  unknownFileReport,
  xmllintErrors,
} from './sepa-support';

interface ToProcess {
  items: {
    professionalId: string;
    settlementCount: number;
    owedCents: number;
    recoveryCents: number;
    transferCents: number;
    selectable: boolean;
    excludedBecause: string | null;
    missingFields: string[];
    payoutBlock: { reasonCode: string | null } | null;
  }[];
  total: number;
  nextCursor: string | null;
  totals: { doctorCount: number; settlementCount: number; owedCents: number };
  months: { referenceMonth: string; doctorCount: number; settlementCount: number }[];
}
interface SepaFile {
  id: string;
  msgId: string;
  paymentInfoId: string;
  status: string;
  amountCents: number;
  transferCount: number;
  settlementCount: number;
  executionDate: string;
  downloadable: boolean;
  rejectedTransferCount: number;
}
interface Generated {
  file: SepaFile;
  excluded: { professionalId: string; reason: string }[];
}
interface Detail extends SepaFile {
  transfers: {
    endToEndId: string;
    professionalId: string;
    amountCents: number;
    settledCents: number;
    recoveredCents: number;
    status: string;
    rejection: { reasonCode: string | null; reasonText: string | null } | null;
    settlements: { id: string; amountCents: number; status: string }[];
    recoveries: { settlementId: string; amountCents: number }[];
  }[];
}
interface ReportResult {
  outcome: string;
  applied: boolean;
  alreadyApplied: boolean;
  fileStatusBefore: string;
  fileStatus: string;
  rejectedTransfers: { endToEndId: string; professionalId: string; reasonCode: string | null }[];
}

describe.each(testDatabaseKinds())('SEPA files API on $name', (kind) => {
  let world: SepaWorld;
  beforeAll(async () => {
    world = await startSepaWorld(kind);
  }, 120_000);
  afterAll(async () => world?.stop());

  let keyNumber = 0;
  const newKey = () => `test-key-${++keyNumber}`;
  const generate = (body: unknown, key: string | null = newKey()) =>
    world.call('POST', '/v2/admin/settlement/sepa/', {
      body,
      headers: key ? { 'idempotency-key': key } : {},
    });
  const statusesOf = async (ids: string[]) =>
    (
      await world.db.query<{ status: string }>(
        'SELECT status FROM settlement_statuses WHERE id = ANY($1::uuid[]) ORDER BY status',
        [ids],
      )
    ).rows.map((r) => r.status);
  const xmlOf = async (id: string) => {
    const response = await world.call('GET', `/v2/admin/settlement/sepa/${id}/download/xml`);
    expect(response.status).toBe(200);
    return new Uint8Array(await response.arrayBuffer());
  };
  const detailOf = async (id: string) =>
    expectStatus<Detail>(await world.call('GET', `/v2/admin/settlement/sepa/${id}`), 200);
  const upload = (xml: string) =>
    world.call('POST', '/v2/admin/settlement/sepa/status-report', {
      body: xml,
      headers: { 'content-type': 'application/xml' },
    });

  /** Σ settlements − Σ recoveries = Σ transfers = CtrlSum = stored amount; NbOfTxs = transfers. */
  async function expectReconciled(file: SepaFile, xml: Uint8Array) {
    const detail = await detailOf(file.id);
    const read = readPain001(new TextDecoder().decode(xml));
    if (!read.ok) throw new Error(`unreadable pain.001: ${read.code}`);
    const { rows } = await world.db.query<{ settled: string; recovered: string; transfers: string }>(
      `SELECT (SELECT coalesce(sum(amount_cents), 0) FROM sepa_transaction_settlements WHERE sepa_file_id = $1) AS settled,
              (SELECT coalesce(sum(amount_cents), 0) FROM sepa_transaction_recoveries WHERE sepa_file_id = $1) AS recovered,
              (SELECT coalesce(sum(amount_cents), 0) FROM sepa_transactions WHERE sepa_file_id = $1) AS transfers`,
      [file.id],
    );
    const sums = rows[0]!;
    const xmlTransfers = read.file.payments.flatMap((p) => p.transactions);
    expect({
      settledMinusRecovered: Number(sums.settled) - Number(sums.recovered),
      transfers: Number(sums.transfers),
      ctrlSum: decimalToCents(read.file.controlSum ?? ''),
      pmtInfCtrlSum: decimalToCents(read.file.payments[0]?.controlSum ?? ''),
      stored: file.amountCents,
      nbOfTxs: Number(read.file.numberOfTransactions),
      xmlTransferSum: xmlTransfers.reduce((sum, t) => sum + (t.amountCents ?? 0), 0),
    }).toEqual({
      settledMinusRecovered: file.amountCents,
      transfers: file.amountCents,
      ctrlSum: file.amountCents,
      pmtInfCtrlSum: file.amountCents,
      stored: file.amountCents,
      nbOfTxs: detail.transfers.length,
      xmlTransferSum: file.amountCents,
    });
    for (const transfer of detail.transfers)
      expect(transfer.amountCents).toBe(transfer.settledCents - transfer.recoveredCents);
  }

  it('lists the settlements to process per doctor, with why a doctor cannot be selected', async () => {
    const month = '2026-01';
    const paid = await insertDoctor(world.db);
    const incomplete = await insertDoctor(world.db, { complete: false });
    const owesBack = await insertDoctor(world.db);
    await insertSettlements(world.db, world.customerId, paid.id, [
      { grossCents: 5000, month },
      { grossCents: 1000, month },
      { grossCents: 7000, month, status: 'AVAILABLE' },
    ]);
    await insertSettlements(world.db, world.customerId, incomplete.id, [{ grossCents: 4000, month }]);
    await insertSettlements(world.db, world.customerId, owesBack.id, [
      { grossCents: 3000, month },
      { grossCents: 9000, month: '2025-11', status: 'REFUNDED_PAID' },
    ]);
    const body = await expectStatus<ToProcess>(
      await world.call('GET', `/v2/admin/settlement/sepa/to-process?referenceMonth=${month}`),
      200,
    );
    const byId = new Map(body.items.map((item) => [item.professionalId, item]));
    expect(byId.get(paid.id)).toMatchObject({
      settlementCount: 2,
      owedCents: payableOf(5000) + payableOf(1000),
      recoveryCents: 0,
      transferCents: payableOf(5000) + payableOf(1000),
      selectable: true,
      excludedBecause: null,
    });
    expect(byId.get(incomplete.id)).toMatchObject({
      selectable: false,
      excludedBecause: 'MISSING_INFORMATION',
      missingFields: ['taxNumber'],
      transferCents: 0,
    });
    expect(byId.get(owesBack.id)).toMatchObject({
      owedCents: payableOf(3000),
      recoveryCents: payableOf(9000),
      selectable: false,
      excludedBecause: 'RECOVERY_NOT_COVERED',
      transferCents: 0,
    });
    // The month's kept totals, payable or not: who can be paid is the dry run's answer (decision 0145).
    expect({ total: body.total, nextCursor: body.nextCursor, totals: body.totals }).toEqual({
      total: 3,
      nextCursor: null,
      totals: {
        doctorCount: 3,
        settlementCount: 4,
        owedCents: payableOf(5000) + payableOf(1000) + payableOf(4000) + payableOf(3000),
        currency: 'EUR',
      },
    });
    expect(body.months).toContainEqual({ referenceMonth: month, doctorCount: 3, settlementCount: 4 });
    expect(
      (await world.call('GET', '/v2/admin/settlement/sepa/to-process?referenceMonth=2026-13')).status,
    ).toBe(400);
  });

  it('dry-runs without changing anything, then generates one schema-valid file with an idempotency key', async () => {
    const month = '2026-02';
    const a = await insertDoctor(world.db);
    const b = await insertDoctor(world.db);
    const skipped = await insertDoctor(world.db, { complete: false });
    const aIds = await insertSettlements(world.db, world.customerId, a.id, [
      { grossCents: 6000, month },
      { grossCents: 1500, month },
    ]);
    const bIds = await insertSettlements(world.db, world.customerId, b.id, [{ grossCents: 12_345, month }]);
    const skippedIds = await insertSettlements(world.db, world.customerId, skipped.id, [
      { grossCents: 5000, month },
    ]);
    const total = payableOf(6000) + payableOf(1500) + payableOf(12_345);

    const dry = await expectStatus<{
      transferCount: number;
      totalCents: number;
      executionDate: string;
      excluded: { reason: string }[];
    }>(
      await world.call('POST', '/v2/admin/settlement/sepa/dry-run', { body: { referenceMonth: month } }),
      200,
    );
    expect(dry).toMatchObject({ transferCount: 2, totalCents: total, executionDate: '2026-05-08' });
    expect(dry.excluded.map((e) => e.reason)).toEqual(['MISSING_INFORMATION']);
    // a Saturday asked for becomes the Monday after; a day in the past is refused
    const weekend = await expectStatus<{ executionDate: string }>(
      await world.call('POST', '/v2/admin/settlement/sepa/dry-run', {
        body: { referenceMonth: month, executionDate: '2026-05-09' },
      }),
      200,
    );
    expect(weekend.executionDate).toBe('2026-05-11');
    const past = await world.call('POST', '/v2/admin/settlement/sepa/dry-run', {
      body: { referenceMonth: month, executionDate: '2026-05-06' },
    });
    expect(await expectStatus(past, 422)).toMatchObject({ code: 'SEPA_EXECUTION_DATE_IN_PAST' });
    expect(await statusesOf([...aIds, ...bIds])).toEqual(['SETTLED', 'SETTLED', 'SETTLED']);

    expect(await expectStatus(await generate({ referenceMonth: month }, null), 400)).toMatchObject({
      code: 'IDEMPOTENCY_KEY_REQUIRED',
    });
    const key = newKey();
    const first = await expectStatus<Generated>(await generate({ referenceMonth: month }, key), 200);
    expect(first.file).toMatchObject({
      status: 'GENERATED',
      transferCount: 2,
      settlementCount: 3,
      amountCents: total,
      executionDate: '2026-05-08',
      downloadable: true,
    });
    expect(first.excluded.map((e) => e.professionalId)).toEqual([skipped.id]);
    expect(await statusesOf([...aIds, ...bIds])).toEqual([
      'PENDING_TRANSFER',
      'PENDING_TRANSFER',
      'PENDING_TRANSFER',
    ]);
    // One audit row on the file records the move (docs/decisions/0080)…
    expect(
      await count(world.db, `audit_log WHERE action = 'settlement.included-in-sepa' AND entity_id = $1`, [
        first.file.id,
      ]),
    ).toBe(1);
    // …and each settlement's own history (the audit list by entity) shows it.
    for (const id of [...aIds, ...bIds]) {
      const history = await expectStatus<{ items: { action: string; entityId: string; after: unknown }[] }>(
        await world.call('GET', `/v2/admin/audit?entityType=settlement&entityId=${id}`),
        200,
      );
      expect(history.items).toEqual([
        expect.objectContaining({
          action: 'settlement.included-in-sepa',
          entityId: first.file.id,
          after: expect.objectContaining({
            status: 'PENDING_TRANSFER',
            settlementCount: 3,
            sepaFileId: first.file.id,
          }),
        }),
      ]);
    }
    // A settlement the file did not take has none of it.
    const untouched = await expectStatus<{ items: unknown[] }>(
      await world.call('GET', `/v2/admin/audit?entityType=settlement&entityId=${skippedIds[0]}`),
      200,
    );
    expect(untouched.items).toEqual([]);
    expect(
      await count(world.db, `audit_log WHERE action = 'sepa.generated' AND entity_id = $1`, [first.file.id]),
    ).toBe(1);

    // a retry answers the same file and changes nothing; the same key with another request is refused
    const retry = await expectStatus<Generated>(await generate({ referenceMonth: month }, key), 200);
    expect(retry).toEqual(first);
    expect(await count(world.db, 'sepa_files WHERE reference_month = $1', [month])).toBe(1);
    expect(
      await count(world.db, `audit_log WHERE action = 'sepa.generated' AND entity_id = $1`, [first.file.id]),
    ).toBe(1);
    expect(await expectStatus(await generate({ referenceMonth: '2026-03' }, key), 422)).toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    // another key: nothing left to pay
    expect(await expectStatus(await generate({ referenceMonth: month }), 409)).toMatchObject({
      code: 'NO_SEPA_CREATED',
    });

    const xml = await xmlOf(first.file.id);
    expect(await xmllintErrors(xml)).toBe('');
    expect(await cliSepaCheck(xml)).toMatchObject({ ok: true, findings: [], schemaErrors: [] });
    const text = new TextDecoder().decode(xml);
    expect(text).toContain('<BtchBookg>true</BtchBookg>');
    expect(text).toContain(`<MsgId>${first.file.msgId}</MsgId>`);
    await expectReconciled(first.file, xml);
  });

  it('deducts refunds after payout from the next transfer once, and owes them again when the file is deleted', async () => {
    const month = '2026-03';
    const doctor = await insertDoctor(world.db);
    await insertSettlements(world.db, world.customerId, doctor.id, [{ grossCents: 20_000, month }]);
    const [refunded] = await insertSettlements(world.db, world.customerId, doctor.id, [
      { grossCents: 3000, month: '2025-12', status: 'REFUNDED_PAID' },
    ]);
    const generated = await expectStatus<Generated>(
      await generate({ referenceMonth: month, professionalIds: [doctor.id] }),
      200,
    );
    expect(generated.file.amountCents).toBe(payableOf(20_000) - payableOf(3000));
    const detail = await detailOf(generated.file.id);
    expect(detail.transfers[0]).toMatchObject({
      settledCents: payableOf(20_000),
      recoveredCents: payableOf(3000),
      recoveries: [{ settlementId: refunded, amountCents: payableOf(3000) }],
    });
    await expectReconciled(generated.file, await xmlOf(generated.file.id));
    const payouts = await expectStatus<{ recovery: { amountCents: number } }>(
      await world.call('GET', `/v2/admin/professionals/${doctor.id}/payouts`),
      200,
    );
    expect(payouts.recovery.amountCents).toBe(0);

    expect((await world.call('DELETE', `/v2/admin/settlement/sepa/${generated.file.id}`)).status).toBe(204);
    const after = await expectStatus<{ recovery: { amountCents: number; settlements: { id: string }[] } }>(
      await world.call('GET', `/v2/admin/professionals/${doctor.id}/payouts`),
      200,
    );
    expect(after.recovery).toEqual({
      amountCents: payableOf(3000),
      settlements: [{ id: refunded, caseId: expect.any(String), amountCents: payableOf(3000) }],
    });
    expect((await world.call('GET', `/v2/admin/settlement/sepa/${generated.file.id}`)).status).toBe(404);
  });

  it('moves files only along DESIGN §6, with downloads only while GENERATED', async () => {
    const month = '2025-06';
    const doctor = await insertDoctor(world.db);
    const ids = await insertSettlements(world.db, world.customerId, doctor.id, [{ grossCents: 4000, month }]);
    const { file } = await expectStatus<Generated>(await generate({ referenceMonth: month }), 200);

    const xlsx = await world.call('GET', `/v2/admin/settlement/sepa/${file.id}/download/xlsx?locale=en-GB`);
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get('content-disposition')).toContain(`${file.msgId}.xlsx`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(await xlsx.arrayBuffer()) as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.rowCount).toBe(1 + file.transferCount);
    expect(sheet.getRow(1).getCell(1).value).toBe('Reference (EndToEndId)');
    const xml = await world.call('GET', `/v2/admin/settlement/sepa/${file.id}/download/xml`);
    expect(xml.headers.get('content-disposition')).toContain(`filename="${file.msgId}.xml"`);
    await xml.body?.cancel();

    const mark = (action: string) => world.call('POST', `/v2/admin/settlement/sepa/${file.id}/${action}`);
    expect(await expectStatus(await mark('available'), 200)).toMatchObject({
      status: 'AVAILABLE',
      downloadable: false,
    });
    expect(await expectStatus(await mark('available'), 409)).toMatchObject({
      code: 'SEPA_TRANSITION_NOT_ALLOWED',
    });
    for (const format of ['xml', 'xlsx'])
      expect(
        await expectStatus(
          await world.call('GET', `/v2/admin/settlement/sepa/${file.id}/download/${format}`),
          409,
        ),
      ).toMatchObject({
        code: 'SEPA_NOT_DOWNLOADABLE',
      });
    expect(
      await expectStatus(await world.call('DELETE', `/v2/admin/settlement/sepa/${file.id}`), 409),
    ).toMatchObject({ code: 'SEPA_NOT_DELETABLE' });
    expect(await expectStatus(await mark('paid'), 200)).toMatchObject({ status: 'PAID' });
    expect(await statusesOf(ids)).toEqual(['PAID']);
    expect(await expectStatus(await mark('unavailable'), 409)).toMatchObject({
      code: 'SEPA_TRANSITION_NOT_ALLOWED',
    });
    expect(
      await count(world.db, `audit_log WHERE entity_id = $1 AND action LIKE 'sepa.marked-%'`, [file.id]),
    ).toBe(2);

    const other = await insertDoctor(world.db);
    const otherIds = await insertSettlements(world.db, world.customerId, other.id, [
      { grossCents: 2500, month },
    ]);
    const second = await expectStatus<Generated>(await generate({ referenceMonth: month }), 200);
    expect(
      await expectStatus(
        await world.call('POST', `/v2/admin/settlement/sepa/${second.file.id}/unavailable`),
        200,
      ),
    ).toMatchObject({
      status: 'UNAVAILABLE',
    });
    expect(await statusesOf(otherIds)).toEqual(['SETTLED']);
    // back to SETTLED and in no live file: a new file can pay them
    const third = await expectStatus<Generated>(await generate({ referenceMonth: month }), 200);
    expect(third.file.settlementCount).toBe(1);

    const missing = '00000000-0000-4000-8000-000000000001';
    expect(
      await expectStatus(await world.call('POST', `/v2/admin/settlement/sepa/${missing}/paid`), 404),
    ).toMatchObject({ code: 'SEPA_FILE_NOT_FOUND' });
  });

  it('lists the history with filters and finds a file by its MsgId', async () => {
    const month = '2025-07';
    const doctor = await insertDoctor(world.db);
    await insertSettlements(world.db, world.customerId, doctor.id, [{ grossCents: 9900, month }]);
    const { file } = await expectStatus<Generated>(await generate({ referenceMonth: month }), 200);
    type Page = { items: SepaFile[]; total: number; nextCursor: string | null };
    const byMsgId = await expectStatus<Page>(
      await world.call('GET', `/v2/admin/settlement/sepa/?msgId=${file.msgId}`),
      200,
    );
    expect(byMsgId.items.map((f) => f.id)).toEqual([file.id]);
    const byMonth = await expectStatus<Page>(
      await world.call('GET', `/v2/admin/settlement/sepa/?referenceMonth=${month}&status=GENERATED`),
      200,
    );
    expect(byMonth.items.map((f) => f.id)).toEqual([file.id]);
    const none = await expectStatus<Page>(
      await world.call('GET', `/v2/admin/settlement/sepa/?referenceMonth=${month}&status=PAID`),
      200,
    );
    expect(none.total).toBe(0);
    // keyset pages: every file once, newest first
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Page = await expectStatus<Page>(
        await world.call(
          'GET',
          `/v2/admin/settlement/sepa/?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        ),
        200,
      );
      seen.push(...page.items.map((f) => f.id));
      cursor = page.nextCursor;
    } while (cursor);
    const { rows } = await world.db.query<{ id: string }>(
      'SELECT id FROM sepa_files ORDER BY created_at DESC, id DESC',
    );
    expect(seen).toEqual(rows.map((r) => r.id));
  });

  it("applies the bank's answer: accepted, twice, partially rejected with blocks, rejected, unknown", async () => {
    const month = '2025-08';
    // accepted → AVAILABLE; the same report again changes nothing
    const one = await insertDoctor(world.db);
    await insertSettlements(world.db, world.customerId, one.id, [{ grossCents: 5000, month }]);
    const accepted = await expectStatus<Generated>(await generate({ referenceMonth: month }), 200);
    const first = await expectStatus<ReportResult>(await upload(acceptedReport(accepted.file.msgId)), 200);
    expect(first).toMatchObject({
      outcome: 'ACCEPTED',
      applied: true,
      fileStatusBefore: 'GENERATED',
      fileStatus: 'AVAILABLE',
    });
    const audits = await count(world.db, 'audit_log');
    const again = await expectStatus<ReportResult>(await upload(acceptedReport(accepted.file.msgId)), 200);
    expect(again).toMatchObject({ applied: false, alreadyApplied: true, fileStatus: 'AVAILABLE' });
    expect(await count(world.db, 'audit_log')).toBe(audits);

    // PART: transfers 2 and 3 rejected by name → their settlements back to SETTLED, doctors blocked
    const month2 = '2025-09';
    const doctors = [
      await insertDoctor(world.db),
      await insertDoctor(world.db),
      await insertDoctor(world.db),
    ];
    const settlementIds: string[][] = [];
    for (const d of doctors)
      settlementIds.push(
        await insertSettlements(world.db, world.customerId, d.id, [{ grossCents: 8000, month: month2 }]),
      );
    const part = await expectStatus<Generated>(await generate({ referenceMonth: month2 }), 200);
    const detail = await detailOf(part.file.id);
    const e2e = detail.transfers.map((t) => t.endToEndId) as [string, string, string];
    const form = new FormData();
    form.append(
      'file',
      new Blob([partialReport(part.file.msgId, part.file.paymentInfoId, e2e)], { type: 'application/xml' }),
      'pain002.xml',
    );
    const partResult = await expectStatus<ReportResult>(
      await world.call('POST', '/v2/admin/settlement/sepa/status-report', { body: form }),
      200,
    );
    expect(partResult).toMatchObject({ outcome: 'PARTIAL', applied: true, fileStatus: 'AVAILABLE' });
    expect(partResult.rejectedTransfers.map((t) => [t.endToEndId, t.reasonCode])).toEqual([
      [e2e[1], 'AC04'],
      [e2e[2], 'RR03'],
    ]);
    const after = await detailOf(part.file.id);
    expect(after.transfers.map((t) => t.status)).toEqual(['INCLUDED', 'REJECTED', 'REJECTED']);
    expect(after.rejectedTransferCount).toBe(2);
    const rejectedDoctors = [1, 2].map((i) => after.transfers[i]!.professionalId);
    const statusOfDoctor = (id: string) => statusesOf(settlementIds[doctors.findIndex((d) => d.id === id)]!);
    expect(await statusOfDoctor(after.transfers[0]!.professionalId)).toEqual(['PENDING_TRANSFER']);
    for (const id of rejectedDoctors) expect(await statusOfDoctor(id)).toEqual(['SETTLED']);
    const toProcess = await expectStatus<ToProcess>(
      await world.call('GET', `/v2/admin/settlement/sepa/to-process?referenceMonth=${month2}`),
      200,
    );
    expect(
      toProcess.items.map((i) => [i.professionalId, i.excludedBecause, i.payoutBlock?.reasonCode]).sort(),
    ).toEqual(
      [
        [rejectedDoctors[0], 'PAYOUT_BLOCKED', 'AC04'],
        [rejectedDoctors[1], 'PAYOUT_BLOCKED', 'RR03'],
      ].sort(),
    );
    expect(await expectStatus(await generate({ referenceMonth: month2 }), 409)).toMatchObject({
      code: 'NO_SEPA_CREATED',
    });
    const payouts = await expectStatus<{
      payoutBlock: { reasonCode: string } | null;
      transfers: { status: string; rejection: unknown }[];
    }>(await world.call('GET', `/v2/admin/professionals/${rejectedDoctors[0]}/payouts`), 200);
    expect(payouts.payoutBlock?.reasonCode).toBe('AC04');
    expect(payouts.transfers[0]).toMatchObject({ status: 'REJECTED', rejection: { reasonCode: 'AC04' } });
    // a new IBAN lifts the block; the accepted transfer is paid with the file
    await world.db.query('UPDATE users SET iban = $2 WHERE id = $1', [rejectedDoctors[0], newIban()]);
    const lifted = await expectStatus<Generated>(await generate({ referenceMonth: month2 }), 200);
    expect(lifted.file.transferCount).toBe(1);
    expect(
      await expectStatus(await world.call('POST', `/v2/admin/settlement/sepa/${part.file.id}/paid`), 200),
    ).toMatchObject({ status: 'PAID' });
    expect(await statusOfDoctor(after.transfers[0]!.professionalId)).toEqual(['PAID']);
    expect(await statusOfDoctor(rejectedDoctors[1]!)).toEqual(['SETTLED']);

    // rejected → UNAVAILABLE, settlements back; a report for a file already UNAVAILABLE is too late
    const month3 = '2025-10';
    const four = await insertDoctor(world.db);
    const fourIds = await insertSettlements(world.db, world.customerId, four.id, [
      { grossCents: 3300, month: month3 },
    ]);
    const doomed = await expectStatus<Generated>(await generate({ referenceMonth: month3 }), 200);
    expect(
      await expectStatus<ReportResult>(await upload(rejectedReport(doomed.file.msgId)), 200),
    ).toMatchObject({
      outcome: 'REJECTED',
      fileStatus: 'UNAVAILABLE',
    });
    expect(await statusesOf(fourIds)).toEqual(['SETTLED']);
    expect(
      await expectStatus(await upload(acceptedReport(doomed.file.msgId, 'BANK-LATE')), 409),
    ).toMatchObject({ code: 'STATUS_REPORT_TOO_LATE' });

    expect(await expectStatus(await upload(unknownFileReport()), 422)).toMatchObject({
      code: 'STATUS_REPORT_UNKNOWN_FILE',
    });
    expect(await expectStatus(await upload('<not-xml'), 422)).toMatchObject({
      code: 'STATUS_REPORT_UNREADABLE',
    });
    expect(
      await expectStatus(
        await world.call('POST', '/v2/admin/settlement/sepa/status-report', { body: {} }),
        400,
      ),
    ).toMatchObject({
      code: 'STATUS_REPORT_MISSING',
    });
  });
});
