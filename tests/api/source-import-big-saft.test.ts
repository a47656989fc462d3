// A SAF-T month over 32 MiB of XML (issue 31, decisions 0163, 0170) imported over HTTP on both backends:
// checked against the official XSD in pieces by its job, before anything is written. The month bills with
// invoices (FT) and a receipt (RG) each, so its Payments section alone is ~12 MiB — more than the frame the
// pieces repeat, which left such a file unchecked before it was sliced too. One schema fault deep in the
// file fails the job with SAFT_SCHEMA_INVALID, the XSD's words and the line in the uploaded file, nothing
// imported: an invoice near the end without its signature, or a receipt near the end numbered as the first
// one (a `unique` decided across pieces); the same month without a fault imports with `schemaChecked: true`.
// The size checked before the 202 is the configuration's (`SAFT_SCHEMA_BEFORE_ACCEPT_MAX_BYTES`): lowered,
// a small file's fault fails its job instead, and a file whose header is too big to repeat in every piece is
// checked whole; one over 32 MiB whose header is that big cannot be checked and is refused
// (SAFT_SCHEMA_UNCHECKABLE) by its job, or before the 202 when the configuration awaits it there.

import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoPayment } from '../../server/seed/demo-payments';
import { writeDemoSaft } from '../../server/seed/source-files';
import { SAFT_SCHEMA_BEFORE_ACCEPT_MAX_BYTES } from '../../server/sources/source-import';
import { testDatabaseKinds } from '../support/databases';
import { SOURCE_FIXTURES } from '../support/saft-xsd';
import { count, startApi } from './harness';
import { finishedSourceJob, importSource, type SourceApi, seededSourceApi, utf8 } from './source-support';

const MONTH = '2031-01';
/** ~2.4 KB of XML each and ~1.2 KB for its receipt: just over 32 MiB. */
const INVOICES = 10_000;

function month(): string {
  const payments: DemoPayment[] = Array.from({ length: INVOICES }, (_, i) => ({
    reference: `${String(i).padStart(8, '0')}-4e3b-4a7c-9d2e-${String(i * 7919).padStart(12, '0')}`,
    kind: 'case',
    customerId: `u${i % 5_000}`,
    customerName: `Cliente ${i % 5_000}`,
    customerTaxId: i % 3 === 0 ? null : String(200_000_000 + (i % 5_000)),
    grossCents: [1500, 2500, 1990][i % 3]!,
    paidOn: `${MONTH}-${String(1 + (i % 28)).padStart(2, '0')}`,
    paymentIntentId: null,
    refunded: false,
  }));
  return writeDemoSaft(MONTH, payments, '2031-02-01', { receipts: true });
}

describe.each(testDatabaseKinds())('a SAF-T over 32 MiB of XML on $name', (kind) => {
  let api: SourceApi;
  let xml: string;
  const marketplace = readFileSync(`${SOURCE_FIXTURES}made-here-saft-pt-marketplace-utf8.xml`, 'utf8');
  /** The marketplace's file with a comment of `mib` MiB in its header: a frame that big. */
  const padded = (text: string, mib: number) =>
    text.replace('<Header>', `<Header><!--${' '.repeat(mib * 1_048_576)}-->`);
  const schemaChecked = async (sourceFileId: string) => {
    const { rows } = await api.db.query<{ checked: boolean }>(
      `SELECT (summary->>'schemaChecked')::boolean AS checked FROM source_files WHERE id = $1`,
      [sourceFileId],
    );
    return rows[0]!.checked;
  };
  const imported = async () => ({
    files: await count(api.db, 'source_files'),
    invoices: await count(api.db, 'provider_invoices'),
  });

  beforeAll(async () => {
    api = await seededSourceApi(kind);
    xml = month();
    expect(Buffer.byteLength(xml)).toBeGreaterThan(SAFT_SCHEMA_BEFORE_ACCEPT_MAX_BYTES);
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });

  it('fails the job on a schema fault deep in the file, with its line in the upload, nothing imported', async () => {
    // An invoice's signature removed near the end: the XSD then finds HashControl where Hash must be.
    const hashes = [...xml.matchAll(/ *<Hash>0<\/Hash>\n/g)];
    const removed = hashes[INVOICES - 500]!;
    const unsigned = xml.slice(0, removed.index) + xml.slice(removed.index + removed[0].length);
    const line = unsigned.slice(0, removed.index).split('\n').length;
    expect(unsigned.slice(removed.index).split('\n')[0]).toMatch(/<HashControl>/);
    const before = await imported();
    const { status, job } = await importSource(api, gzipSync(utf8(unsigned)), {
      kind: 'SAFT_INVOICES',
      fileName: 'unsigned.xml.gz',
    });
    expect(status).toBe(202);
    expect(job).toMatchObject({ status: 'FAILED', errorCode: 'SAFT_SCHEMA_INVALID' });
    expect(job!.schemaErrors?.[0]).toBe(
      `line ${line}: Element '{urn:OECD:StandardAuditFile-Tax:PT_1.04_01}HashControl': This element is not expected. Expected is ( {urn:OECD:StandardAuditFile-Tax:PT_1.04_01}Hash ).`,
    );
    expect(await imported()).toEqual(before);
    // Kept with the job (migration 0054), not by the instance that ran it: another one answers the same.
    const other = await startApi(api.db);
    try {
      expect(await finishedSourceJob({ ...api, api: other }, job!.id)).toEqual(job);
    } finally {
      await other.stop();
    }
  }, 60_000);

  it('fails the job on a receipt near the end numbered as the first one, with its line, nothing imported', async () => {
    const numbers = [...xml.matchAll(/<PaymentRefNo>([^<]*)<\/PaymentRefNo>/g)];
    expect(numbers.length).toBe(INVOICES);
    const repeat = numbers[INVOICES - 300]!;
    const repeated = `${xml.slice(0, repeat.index)}<PaymentRefNo>${numbers[0]![1]}</PaymentRefNo>${xml.slice(repeat.index + repeat[0].length)}`;
    // libxml2 says it of the receipt's element, the line before its number.
    const line = repeated.slice(0, repeat.index).split('\n').length - 1;
    expect(repeated.split('\n')[line - 1]).toMatch(/^ *<Payment>$/);
    const before = await imported();
    const { status, job } = await importSource(api, gzipSync(utf8(repeated)), {
      kind: 'SAFT_INVOICES',
      fileName: 'receipt-twice.xml.gz',
    });
    expect(status).toBe(202);
    expect(job).toMatchObject({ status: 'FAILED', errorCode: 'SAFT_SCHEMA_INVALID' });
    expect(job!.schemaErrors?.[0]).toBe(
      `line ${line}: Element '{urn:OECD:StandardAuditFile-Tax:PT_1.04_01}Payment': Duplicate key-sequence ['${numbers[0]![1]}'] in unique identity-constraint '{urn:OECD:StandardAuditFile-Tax:PT_1.04_01}PaymentPaymentRefNoConstraint'.`,
    );
    expect(await imported()).toEqual(before);
  }, 60_000);

  it('imports the valid month, its schema checked', async () => {
    const before = await imported();
    const { status, job } = await importSource(api, gzipSync(utf8(xml)), {
      kind: 'SAFT_INVOICES',
      fileName: 'month.xml.gz',
    });
    expect(status).toBe(202);
    expect(job).toMatchObject({ status: 'DONE', errorCode: null });
    expect(await schemaChecked(job!.result!.sourceFileId)).toBe(true);
    expect(await imported()).toEqual({ files: before.files + 1, invoices: before.invoices + INVOICES });
  }, 60_000);

  // Before the marketplace's file is imported below: its invoices would then be nothing new.
  it('refuses a file over 32 MiB whose header is too big for the pieces: by its job, or before the 202 when awaited there', async () => {
    const huge = utf8(padded(marketplace, 33));
    const before = await imported();
    const byJob = await importSource(api, huge, { kind: 'SAFT_INVOICES', fileName: 'huge-header.xml' });
    expect(byJob.status).toBe(202);
    expect(byJob.job).toMatchObject({ status: 'FAILED', errorCode: 'SAFT_SCHEMA_UNCHECKABLE' });
    expect(await imported()).toEqual(before);
    const raised = await startApi(api.db, {
      env: { SAFT_SCHEMA_BEFORE_ACCEPT_MAX_BYTES: String(64 * 1_048_576) },
    });
    try {
      const before202 = await importSource({ ...api, api: raised }, huge, {
        kind: 'SAFT_INVOICES',
        fileName: 'huge-header.xml',
      });
      expect(before202.status).toBe(422);
      expect(before202.body).toMatchObject({ code: 'SAFT_SCHEMA_UNCHECKABLE' });
    } finally {
      await raised.stop();
    }
    expect(await imported()).toEqual(before);
  }, 120_000);

  it("honours the configuration's size: below it a file's schema is its job's, and a header too big for the pieces is checked whole", async () => {
    const lowered = await startApi(api.db, {
      env: { SAFT_SCHEMA_BEFORE_ACCEPT_MAX_BYTES: String(1_048_576) },
    });
    const at = { ...api, api: lowered };
    try {
      const before = await imported();
      const unsigned = await importSource(
        at,
        utf8(padded(marketplace.replace(/ *<Hash>[^<]*<\/Hash>\n/, ''), 2)),
        { kind: 'SAFT_INVOICES', fileName: 'unsigned.xml' },
      );
      // Over the lowered size: answered 202 and failed by its job (under the default it is a 422).
      expect(unsigned.status).toBe(202);
      expect(unsigned.job).toMatchObject({ status: 'FAILED', errorCode: 'SAFT_SCHEMA_INVALID' });
      expect(unsigned.job!.schemaErrors?.[0]).toMatch(/^line \d+: .*HashControl/);
      expect(await imported()).toEqual(before);
      // A header of 9 MiB is more than the pieces repeat: the file, under 32 MiB, is checked whole.
      const bigHeaderUnsigned = await importSource(
        at,
        utf8(padded(marketplace.replace(/ *<Hash>[^<]*<\/Hash>\n/, ''), 9)),
        { kind: 'SAFT_INVOICES', fileName: 'big-header-unsigned.xml' },
      );
      expect(bigHeaderUnsigned.job).toMatchObject({ status: 'FAILED', errorCode: 'SAFT_SCHEMA_INVALID' });
      const big = await importSource(at, utf8(padded(marketplace, 9)), {
        kind: 'SAFT_INVOICES',
        fileName: 'big-header.xml',
      });
      expect(big.job).toMatchObject({ status: 'DONE' });
      expect(await schemaChecked(big.job!.result!.sourceFileId)).toBe(true);
    } finally {
      await lowered.stop();
    }
  }, 60_000);
});
