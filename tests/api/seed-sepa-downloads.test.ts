import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds } from '../support/databases';
import { type CaseWorld, startCaseWorld } from './cases-support';

interface SepaFileRow {
  id: string;
  msgId: string;
  status: string;
  downloadable: boolean;
}

/**
 * Issue 29 point 12: the seed marks its GENERATED SEPA files downloadable, so each must answer its XML
 * (it answered 404 FILE_NOT_FOUND) and its spreadsheet through the routes the console's buttons use.
 */
describe.each(testDatabaseKinds())('the seeded SEPA files download on $name', (kind) => {
  let world: CaseWorld;
  beforeAll(async () => {
    world = await startCaseWorld(kind);
  }, 180_000);
  afterAll(async () => world?.stop());

  it('answers the XML and XLSX of every file the list marks downloadable', async () => {
    const listed = await world.get('/v2/admin/settlement/sepa/?limit=100');
    expect(listed.status).toBe(200);
    const { items, total } = (await listed.json()) as { items: SepaFileRow[]; total: number };
    expect(items).toHaveLength(total);
    const downloadable = items.filter((file) => file.downloadable);
    expect(downloadable.map((file) => file.status)).toContain('GENERATED');
    expect(downloadable.length).toBe(items.filter((file) => file.status === 'GENERATED').length);
    for (const file of downloadable) {
      const xml = await world.get(`/v2/admin/settlement/sepa/${file.id}/download/xml`);
      expect(xml.status, file.msgId).toBe(200);
      const text = await xml.text();
      expect(text).toContain('urn:iso:std:iso:20022:tech:xsd:pain.001');
      expect(text).toContain(`<MsgId>${file.msgId}</MsgId>`);
      const xlsx = await world.get(`/v2/admin/settlement/sepa/${file.id}/download/xlsx?locale=pt-PT`);
      expect(xlsx.status, file.msgId).toBe(200);
      expect(new Uint8Array(await xlsx.arrayBuffer()).slice(0, 2)).toEqual(new Uint8Array([0x50, 0x4b]));
    }
  });
});
