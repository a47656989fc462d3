import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../support/databases';
import { statusReportFor } from '../support/status-report';
import { count } from './harness';
import { expectStatus, MONTH, rejectedReport, type SepaWorld, startSepaWorld } from './sepa-support';
import { type GeneratedFile, generateSepaFile, settlementStatuses } from './statements-reconcile-support';

// The bank's reasons reach the transfers whatever level gives them, in whichever encoding the report
// declares, and only an account reason blocks the doctor (issue 27, point 10; decision 0123).

interface Detail {
  status: string;
  transfers: {
    endToEndId: string;
    professionalId: string;
    status: string;
    rejection: { reasonCode: string | null; reasonText: string | null } | null;
  }[];
}
interface Payouts {
  payoutBlock: { reasonCode: string | null } | null;
}

const LATIN1_FIXTURE = join(import.meta.dirname, '../fixtures/status-reports/pain002-part-iso-8859-1.xml');

describe.each(testDatabaseKinds())("the bank's reasons on $name", (kind) => {
  let world: SepaWorld;
  beforeAll(async () => {
    world = await startSepaWorld(kind);
  }, 120_000);
  afterAll(async () => world?.stop());

  const upload = (bytes: string | Uint8Array<ArrayBuffer>) => {
    const form = new FormData();
    form.append('file', new Blob([bytes], { type: 'application/xml' }), 'pain002.xml');
    return world.call('POST', '/v2/admin/settlement/sepa/status-report', { body: form });
  };
  const detailOf = async (file: GeneratedFile) =>
    expectStatus<Detail>(await world.call('GET', `/v2/admin/settlement/sepa/${file.id}`), 200);
  const blockOf = async (professionalId: string) =>
    (
      await expectStatus<Payouts>(
        await world.call('GET', `/v2/admin/professionals/${professionalId}/payouts`),
        200,
      )
    ).payoutBlock;
  const rejections = (detail: Detail) =>
    detail.transfers.map((t) => [t.status, t.rejection?.reasonCode ?? null]);

  it('gives every transfer of a file rejected as a whole the group reason, and blocks nobody for it', async () => {
    const file = await generateSepaFile(world, [4000, 5000]);
    const result = await expectStatus<{ rejectedTransfers: { reasonCode: string | null }[] }>(
      await upload(rejectedReport(file.msgId, `RJCT-${file.msgId}`.slice(0, 35))),
      200,
    );
    expect(result.rejectedTransfers.map((t) => t.reasonCode)).toEqual(['DU01', 'DU01']);
    const detail = await detailOf(file);
    expect(detail.status).toBe('UNAVAILABLE');
    expect(rejections(detail)).toEqual([
      ['REJECTED', 'DU01'],
      ['REJECTED', 'DU01'],
    ]);
    expect(detail.transfers[0]!.rejection!.reasonText).toBe('Message already received');
    expect(await settlementStatuses(world.db, file.settlementIds)).toEqual(['SETTLED', 'SETTLED']);
    for (const t of file.transfers) expect(await blockOf(t.professionalId)).toBeNull();
  });

  it("applies a block's reason to the transfers it rejects without their own", async () => {
    const file = await generateSepaFile(world, [4100, 5100, 6100]);
    const [first, second, third] = file.transfers.map((t) => t.endToEndId) as [string, string, string];
    const xml = statusReportFor(file, [{ endToEndId: first }, { endToEndId: second }, { endToEndId: third }])
      .replace(
        '<PmtInfSts>ACCP</PmtInfSts>',
        '<PmtInfSts>PART</PmtInfSts>\n      <StsRsnInf><Rsn><Cd>MS03</Cd></Rsn></StsRsnInf>',
      )
      .replace('<GrpSts>ACCP</GrpSts>', '<GrpSts>PART</GrpSts>')
      .replace(
        `<OrgnlEndToEndId>${second}</OrgnlEndToEndId>\n        <TxSts>ACCP</TxSts>`,
        `<OrgnlEndToEndId>${second}</OrgnlEndToEndId>\n        <TxSts>RJCT</TxSts>`,
      )
      .replace(
        `<OrgnlEndToEndId>${third}</OrgnlEndToEndId>\n        <TxSts>ACCP</TxSts>`,
        `<OrgnlEndToEndId>${third}</OrgnlEndToEndId>\n        <TxSts>RJCT</TxSts>\n        <StsRsnInf><Rsn><Cd>AC01</Cd></Rsn></StsRsnInf>`,
      );
    await expectStatus(await upload(xml), 200);
    const detail = await detailOf(file);
    const byE2e = new Map(detail.transfers.map((t) => [t.endToEndId, t]));
    expect([first, second, third].map((e2e) => byE2e.get(e2e)!.rejection?.reasonCode ?? null)).toEqual([
      null,
      'MS03',
      'AC01',
    ]);
    // MS03 says nothing against the account; AC01 (its own) does.
    expect(await blockOf(byE2e.get(second)!.professionalId)).toBeNull();
    expect((await blockOf(byE2e.get(third)!.professionalId))?.reasonCode).toBe('AC01');
  });

  it('puts the settlements of a transfer rejected for its amount (AM01) back without blocking the doctor', async () => {
    const file = await generateSepaFile(world, [4200, 5200]);
    const [am01, ok] = file.transfers;
    await expectStatus(
      await upload(statusReportFor(file, [{ endToEndId: am01!.endToEndId, rejectedFor: 'AM01' }, ok!])),
      200,
    );
    const detail = await detailOf(file);
    expect(detail.transfers.find((t) => t.endToEndId === am01!.endToEndId)?.rejection?.reasonCode).toBe(
      'AM01',
    );
    expect(await blockOf(am01!.professionalId)).toBeNull();
    const toProcess = await expectStatus<{
      items: { professionalId: string; selectable: boolean; payoutBlock: unknown }[];
    }>(await world.call('GET', `/v2/admin/settlement/sepa/to-process?referenceMonth=${MONTH}`), 200);
    expect(toProcess.items.find((i) => i.professionalId === am01!.professionalId)).toMatchObject({
      selectable: true,
      payoutBlock: null,
    });
  });

  it('reads a report declared ISO-8859-1, accents included, and blocks the doctor for AC04', async () => {
    const file = await generateSepaFile(world, [4300, 5300]);
    const [closed] = file.transfers;
    const latin1 = new TextDecoder('latin1')
      .decode(readFileSync(LATIN1_FIXTURE))
      .replace('<OrgnlMsgId>SEPA-2026-05-0009', `<OrgnlMsgId>${file.msgId}`)
      .replace('<OrgnlPmtInfId>SEPA-2026-05-0009', `<OrgnlPmtInfId>${file.paymentInfoId}`)
      .replace('STL-LATIN1-0001', closed!.endToEndId);
    // The file's ids are ASCII, so swapping them keeps every other byte as it was.
    const bytes = Uint8Array.from(latin1, (c) => c.charCodeAt(0));
    expect(bytes.includes(0xe1)).toBe(true); // "á" as one byte
    expect(
      await expectStatus<{ outcome: string; fileStatus: string }>(await upload(bytes), 200),
    ).toMatchObject({ outcome: 'PARTIAL', fileStatus: 'AVAILABLE' });
    const detail = await detailOf(file);
    expect(detail.transfers.find((t) => t.endToEndId === closed!.endToEndId)?.rejection).toEqual({
      reasonCode: 'AC04',
      reasonText: 'Conta bancária encerrada pelo titular',
    });
    expect((await blockOf(closed!.professionalId))?.reasonCode).toBe('AC04');
  });

  it('refuses a report in an encoding it does not read, changing nothing', async () => {
    const file = await generateSepaFile(world, [4400]);
    const audits = await count(world.db, 'audit_log');
    const xml = statusReportFor(file, [{ endToEndId: file.transfers[0]!.endToEndId, rejectedFor: 'AC04' }]);
    expect(
      await expectStatus(await upload(xml.replace('encoding="UTF-8"', 'encoding="EBCDIC-CP-US"')), 422),
    ).toMatchObject({ code: 'STATUS_REPORT_ENCODING_UNSUPPORTED' });
    expect((await detailOf(file)).transfers[0]!.status).toBe('INCLUDED');
    expect(await count(world.db, 'audit_log')).toBe(audits);
  });
});
