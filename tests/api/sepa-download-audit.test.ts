import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../support/databases';
import {
  expectStatus,
  insertDoctor,
  insertSettlements,
  type SepaWorld,
  startSepaWorld,
} from './sepa-support';

interface Generated {
  file: { id: string; msgId: string };
}

interface AuditRow {
  action: string;
  actor_id: string;
  after: { format: string; fileName: string } | string;
}

/** Issue 29: a copy of a payment file taken from the console is recorded, as an export download is. */
describe.each(testDatabaseKinds())('SEPA downloads in the audit log on $name', (kind) => {
  let world: SepaWorld;
  beforeAll(async () => {
    world = await startSepaWorld(kind);
  }, 120_000);
  afterAll(async () => world?.stop());

  const downloadsOf = async (id: string) =>
    (
      await world.db.query<AuditRow>(
        `SELECT action, actor_id, after FROM audit_log
          WHERE entity_type = 'sepa_file' AND entity_id = $1 AND action = 'sepa.downloaded' ORDER BY id`,
        [id],
      )
    ).rows.map((row) => ({
      ...row,
      after: typeof row.after === 'string' ? JSON.parse(row.after) : row.after,
    }));

  it('writes who downloaded the XML and the spreadsheet, and nothing for a refused download', async () => {
    const month = '2025-07';
    const doctor = await insertDoctor(world.db);
    await insertSettlements(world.db, world.customerId, doctor.id, [{ grossCents: 4200, month }]);
    const { file } = await expectStatus<Generated>(
      await world.call('POST', '/v2/admin/settlement/sepa/', {
        body: { referenceMonth: month },
        headers: { 'idempotency-key': `download-audit-${kind.name}` },
      }),
      200,
    );

    const xml = await world.call('GET', `/v2/admin/settlement/sepa/${file.id}/download/xml`);
    expect(xml.status).toBe(200);
    await xml.arrayBuffer();
    const xlsx = await world.call('GET', `/v2/admin/settlement/sepa/${file.id}/download/xlsx?locale=pt-PT`);
    expect(xlsx.status).toBe(200);
    await xlsx.arrayBuffer();
    expect(await downloadsOf(file.id)).toEqual([
      {
        action: 'sepa.downloaded',
        actor_id: world.adminId,
        after: { format: 'XML', fileName: `${file.msgId}.xml` },
      },
      {
        action: 'sepa.downloaded',
        actor_id: world.adminId,
        after: { format: 'XLSX', fileName: `${file.msgId}.xlsx` },
      },
    ]);

    // Handed to the bank: the downloads are refused and the refusal leaves no audit row.
    await expectStatus(await world.call('POST', `/v2/admin/settlement/sepa/${file.id}/available`), 200);
    for (const format of ['xml', 'xlsx'])
      expect(
        await expectStatus(
          await world.call('GET', `/v2/admin/settlement/sepa/${file.id}/download/${format}`),
          409,
        ),
      ).toMatchObject({ code: 'SEPA_NOT_DOWNLOADABLE' });
    expect(await downloadsOf(file.id)).toHaveLength(2);
  });
});
