// Importing the payment provider's payouts and the invoicing program's SAF-T over HTTP (issue 31,
// decision 0152), on the seeded demo month written as the two files (server/seed/source-files.ts): each
// imports once, only its new rows, linked to the settlements it pays or bills; a payout whose rows do not
// add up, a file of another kind and a preview that saw something else are refused before any job.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoSourceFiles, writeDemoSourceFiles } from '../../server/seed/source-files';
import { testDatabaseKinds } from '../support/databases';
import { bearer, count, postJson } from './harness';
import {
  finishedSourceJob,
  importSource,
  postSource,
  previewSource,
  SOURCE_MONTH,
  type SourceApi,
  seededSourceApi,
  utf8,
} from './source-support';

describe.each(testDatabaseKinds())('payouts and invoices imports on $name', (kind) => {
  let api: SourceApi;
  let files: DemoSourceFiles;
  let stripe: Uint8Array;
  let saft: Uint8Array;
  const jobsAndFiles = async () => ({
    jobs: await count(api.db, 'statement_import_jobs'),
    files: await count(api.db, 'source_files'),
  });

  beforeAll(async () => {
    api = await seededSourceApi(kind);
    files = await writeDemoSourceFiles(api.db, SOURCE_MONTH);
    stripe = utf8(files.stripeReport);
    saft = utf8(files.saft);
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });

  it('refuses the bytes of another kind with 415, before any job', async () => {
    const before = await jobsAndFiles();
    const saftAsStripe = await postSource(api, saft, {
      kind: 'STRIPE_PAYOUTS',
      fileName: 'month.xml',
      expected: { rows: 1, totalCents: 0 },
    });
    expect(saftAsStripe.status).toBe(415);
    expect(await saftAsStripe.json()).toMatchObject({ code: 'SOURCE_NOT_THIS_KIND', container: 'xml' });
    const stripeAsSaft = await postSource(api, stripe, {
      kind: 'SAFT_INVOICES',
      fileName: 'payouts.csv',
      expected: { rows: 1, totalCents: 0 },
    });
    expect(stripeAsSaft.status).toBe(415);
    expect(await stripeAsSaft.json()).toMatchObject({ code: 'SOURCE_NOT_THIS_KIND', container: 'text' });
    // gzip is a SAF-T's way to travel, never a payout report's.
    const zipped = await postSource(api, gzipSync(stripe), {
      kind: 'STRIPE_PAYOUTS',
      fileName: 'payouts.csv.gz',
      expected: { rows: 1, totalCents: 0 },
    });
    expect(zipped.status).toBe(415);
    expect(await zipped.json()).toMatchObject({ code: 'SOURCE_NOT_THIS_KIND', container: 'gzip' });
    expect(await jobsAndFiles()).toEqual(before);
  });

  it('refuses a payout whose rows do not add up to its amount, with both figures, before any job', async () => {
    const payout = files.payouts[0]!;
    // Stripe's own `payout` balance transaction states the amount paid: one cent more than the rows' net.
    const stated = -(payout.netCents + 1);
    const line = `${payout.id},${payout.date} 00:00:00,txn_payout_itself,${payout.date} 00:00:00,${payout.date} 00:00:00,eur,${(stated / 100).toFixed(2)},0.00,${(stated / 100).toFixed(2)},payout,${payout.id},STRIPE PAYOUT,,,,\n`;
    const bytes = utf8(files.stripeReport + line);
    const before = await jobsAndFiles();
    const response = await postSource(api, bytes, {
      kind: 'STRIPE_PAYOUTS',
      fileName: 'payouts-mismatch.csv',
      expected: { rows: 1, totalCents: 0 },
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({
      code: 'STRIPE_PAYOUT_SUM_MISMATCH',
      payoutId: payout.id,
      payoutCents: payout.netCents + 1,
      rowsNetCents: payout.netCents,
    });
    expect(await jobsAndFiles()).toEqual(before);
  });

  it('refuses a SAF-T the reader can read but the official XSD does not allow, before any job', async () => {
    // The documents' signature (`Hash`) is required by the schema; the reader does not need it.
    const unsigned = files.saft.replaceAll('        <Hash>0</Hash>\n', '');
    expect(unsigned).not.toBe(files.saft);
    const before = await jobsAndFiles();
    const response = await postSource(api, utf8(unsigned), {
      kind: 'SAFT_INVOICES',
      fileName: 'unsigned.xml',
    });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { code: string; schemaErrors: string[]; line: number };
    expect(body.code).toBe('SAFT_SCHEMA_INVALID');
    expect(body.schemaErrors[0]).toMatch(/^line \d+: .*Hash/);
    expect(body.line).toBeGreaterThan(1);
    expect(await jobsAndFiles()).toEqual(before);
  });

  it('reads a SAF-T of over 512 KiB in the reading thread, its schema checked beside it, before any job', async () => {
    // Padded past READ_OFF_THREAD_FROM_BYTES by a comment: the worker's read (its own young generation,
    // decision 0157) and the schema check in a thread of its own, its verdict awaited before the 202 for a
    // file under 32 MiB of XML as the reader counted it (decision 0163).
    const unsigned = files.saft.replaceAll('        <Hash>0</Hash>\n', '');
    const padded = unsigned.replace('<AuditFile', `<!--${' '.repeat(600 * 1024)}-->\n<AuditFile`);
    expect(padded.length).toBeGreaterThan(600 * 1024);
    const before = await jobsAndFiles();
    const response = await postSource(api, utf8(padded), { kind: 'SAFT_INVOICES', fileName: 'padded.xml' });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { code: string; schemaErrors: string[] };
    expect(body.code).toBe('SAFT_SCHEMA_INVALID');
    expect(body.schemaErrors[0]).toMatch(/^line \d+: .*Hash/);
    expect(await jobsAndFiles()).toEqual(before);
  });

  it('refuses a file the preview counted differently', async () => {
    const seen = previewSource('STRIPE_PAYOUTS', stripe);
    const response = await postSource(api, stripe, {
      kind: 'STRIPE_PAYOUTS',
      fileName: 'payouts.csv',
      expected: { rows: seen.rows, totalCents: seen.totalCents + 1 },
    });
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({
      code: 'SOURCE_PREVIEW_MISMATCH',
      expectedTotalCents: seen.totalCents + 1,
      foundTotalCents: seen.totalCents,
    });
  });

  it('imports an overlapping report for its new rows only, links them, then nothing new, then the same file', async () => {
    const [header, ...rows] = files.stripeReport.trimEnd().split('\n');
    const firstPayout = files.payouts[0]!;
    const firstRows = rows.filter((row) => row.startsWith(`${firstPayout.id},`));
    expect(firstRows.length).toBeGreaterThan(0);
    expect(firstRows.length).toBeLessThan(rows.length);
    const partial = await importSource(api, utf8(`${[header, ...firstRows].join('\n')}\n`), {
      kind: 'STRIPE_PAYOUTS',
      fileName: 'first-payout.csv',
    });
    // A source job is not a statement job: each API finds only its own.
    const asStatement = await fetch(`${api.api.url}/v2/admin/statements/imports/${partial.job!.id}`, {
      headers: bearer(api.token),
    });
    expect(asStatement.status).toBe(404);
    const unknown = await fetch(
      `${api.api.url}/v2/admin/sources/imports/00000000-0000-4000-8000-000000000001`,
      {
        headers: bearer(api.token),
      },
    );
    expect(await unknown.json()).toMatchObject({ code: 'SOURCE_IMPORT_NOT_FOUND' });
    expect(partial.job).toMatchObject({
      status: 'DONE',
      kind: 'STRIPE_PAYOUTS',
      result: { newRows: firstRows.length },
    });

    const whole = await importSource(api, stripe, { kind: 'STRIPE_PAYOUTS', fileName: 'month-payouts.csv' });
    expect(whole.job?.status).toBe('DONE');
    expect(whole.job?.result).toEqual({
      sourceFileId: expect.any(String),
      newRows: rows.length - firstRows.length,
      duplicatesSkipped: firstRows.length,
      payouts: files.payouts.length - 1,
      documents: null,
      creditNotes: null,
      cancelled: null,
      linked: rows.length - firstRows.length,
      unlinked: 0,
    });
    // Each balance transaction is linked to the settlement of the case or subscription payment it charged.
    const wrong = await count(
      api.db,
      `provider_payout_rows r JOIN settlements s ON s.id = r.settlement_id
        WHERE position(coalesce(s.case_id, s.subscription_payment_id)::text IN r.description) = 0`,
    );
    expect(wrong).toBe(0);
    expect(await count(api.db, 'provider_payout_rows WHERE settlement_id IS NULL')).toBe(0);
    // A payout is the sum of its rows, and its amount (what the bank was paid) is unchanged.
    for (const payout of files.payouts) {
      const { rows: stored } = await api.db.query<{ net_cents: string; amount_cents: string; n: string }>(
        `SELECT p.net_cents, p.amount_cents, (SELECT count(*) FROM provider_payout_rows r WHERE r.payout_id = p.id) AS n
           FROM provider_payouts p WHERE provider_payout_id = $1`,
        [payout.id],
      );
      expect(Number(stored[0]!.net_cents)).toBe(payout.netCents);
      expect(Number(stored[0]!.amount_cents)).toBe(payout.netCents);
      expect(Number(stored[0]!.n)).toBe(payout.rows.length);
    }

    // The same rows in other bytes: nothing new. The same bytes: already imported.
    const again = await postSource(api, utf8(`${files.stripeReport}\n`), {
      kind: 'STRIPE_PAYOUTS',
      fileName: 'month-payouts-again.csv',
    });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: 'SOURCE_NOTHING_NEW' });
    const same = await postSource(api, stripe, { kind: 'STRIPE_PAYOUTS', fileName: 'month-payouts.csv' });
    expect(same.status).toBe(409);
    expect(await same.json()).toMatchObject({ code: 'SOURCE_ALREADY_IMPORTED' });

    // The preview asks which rows are known, and is told the file each came from.
    const ids = rows.slice(0, 3).map((row) => {
      const cells = row.split(',');
      return `${cells[0]}/${cells[2]}`;
    });
    const known = await postJson(
      `${api.api.url}/v2/admin/sources/known`,
      { kind: 'STRIPE_PAYOUTS', ids: [...ids, 'po_never/txn_never'] },
      bearer(api.token),
    );
    expect(known.status).toBe(200);
    const body = (await known.json()) as { known: { id: string; fileName: string }[] };
    expect(body.known.map((k) => k.id).sort()).toEqual([...ids].sort());
  });

  it('imports the SAF-T month: the cancelled document left out, each invoice billing its case, each credit note offsetting its invoice', async () => {
    const month = files.payments.filter((p) => p.paidOn.startsWith(SOURCE_MONTH));
    const refunded = month.filter((p) => p.refunded);
    const imported = await importSource(api, gzipSync(saft), {
      kind: 'SAFT_INVOICES',
      fileName: 'saft-2026-01.xml.gz',
    });
    expect(imported.job?.status).toBe('DONE');
    expect(imported.job?.result).toMatchObject({
      newRows: month.length + refunded.length,
      documents: month.length,
      creditNotes: refunded.length,
      cancelled: 1,
      payouts: null,
      linked: month.length + refunded.length,
      unlinked: 0,
    });
    // The cancelled first document (status A) is not stored; the summary lists it.
    expect(await count(api.db, `provider_invoices WHERE invoice_no = 'FR CO2026/1'`)).toBe(0);
    const { rows: summary } = await api.db.query<{ summary: { cancelled: { invoiceNo: string }[] } }>(
      `SELECT summary FROM source_files WHERE kind = 'SAFT_INVOICES'`,
    );
    expect(summary[0]!.summary.cancelled.map((c) => c.invoiceNo)).toEqual(['FR CO2026/1']);
    // Every invoice bills the settlement of the case or subscription payment it names.
    const misbilled = await count(
      api.db,
      `provider_invoices i LEFT JOIN settlements s ON s.id = i.settlement_id
        WHERE i.source_file_id IS NOT NULL AND i.document_type <> 'NC'
          AND (s.id IS NULL OR coalesce(s.case_id, s.subscription_payment_id) <> i.case_reference)`,
    );
    expect(misbilled).toBe(0);
    // A credit note names its invoice and offsets it: together they come to nothing.
    const { rows: notes } = await api.db.query<{ invoice_no: string; total: string }>(
      `SELECT i.invoice_no, i.amount_cents + n.amount_cents AS total
         FROM provider_invoices n JOIN provider_invoices i ON i.id = n.credited_invoice_id
        WHERE n.document_type = 'NC'`,
    );
    expect(notes).toHaveLength(refunded.length);
    for (const note of notes) expect(Number(note.total)).toBe(0);
    // As the matcher's counterparts (migration 0044): an invoice is money arriving from its customer, a
    // credit note money going back, both at their positive amount; the seeded bills stay money leaving.
    const { rows: sides } = await api.db.query<{ type: string | null; direction: number; n: number }>(
      `SELECT i.document_type AS type, c.direction, count(*)::int AS n
         FROM statement_counterparts c JOIN provider_invoices i ON i.id = c.id
        WHERE c.kind = 'INVOICE' AND c.amount_cents = abs(i.amount_cents) AND c.amount_cents > 0
        GROUP BY 1, 2 ORDER BY 1 NULLS FIRST, 2`,
    );
    const sideOf = (type: string | null) => sides.filter((s) => s.type === type);
    expect(sideOf('NC')).toEqual([{ type: 'NC', direction: -1, n: refunded.length }]);
    expect(sideOf('FR')).toEqual([{ type: 'FR', direction: 1, n: month.length }]);
    expect(sideOf(null)).toEqual([{ type: null, direction: -1, n: expect.any(Number) }]);
    // Audited in the import's transaction.
    expect(
      await count(api.db, `audit_log WHERE action = 'source.imported' AND entity_type = 'source_file'`),
    ).toBe(3);
  });

  it('takes a document whose ATCUD was imported under another number for the one imported before', async () => {
    // The tax authority's code names one document: renumbered, it is still the same document.
    const renumbered = files.saft.replace(
      '<InvoiceNo>FR CO2026/2</InvoiceNo>',
      '<InvoiceNo>FR CO2026/9002</InvoiceNo>',
    );
    expect(renumbered).not.toBe(files.saft);
    const before = await jobsAndFiles();
    const response = await postSource(api, utf8(renumbered), {
      kind: 'SAFT_INVOICES',
      fileName: 'renumbered.xml',
    });
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ code: 'SOURCE_NOTHING_NEW' });
    expect(await jobsAndFiles()).toEqual(before);
    // The preview is told so, under the id it asked about; an ATCUD of 0 names no document.
    const known = await postJson(
      `${api.api.url}/v2/admin/sources/known`,
      { kind: 'SAFT_INVOICES', ids: ['FR CO2026/9002|JFJ3K8ZM-2', 'FR CO2026/9002|0'] },
      bearer(api.token),
    );
    expect(((await known.json()) as { known: { id: string }[] }).known.map((k) => k.id)).toEqual([
      'FR CO2026/9002|JFJ3K8ZM-2',
    ]);
  });

  it('lists the imported files, newest first, with their counts', async () => {
    const response = await fetch(`${api.api.url}/v2/admin/sources/files?limit=2`, {
      headers: bearer(api.token),
    });
    expect(response.status).toBe(200);
    const page = (await response.json()) as {
      items: { kind: string; controlTotals: string; duplicatesSkipped: number }[];
      nextCursor: string | null;
      total: number;
    };
    expect(page.total).toBe(3);
    expect(page.items.map((f) => [f.kind, f.controlTotals])).toEqual([
      ['SAFT_INVOICES', 'checked'],
      ['STRIPE_PAYOUTS', 'not'],
    ]);
    const next = await fetch(
      `${api.api.url}/v2/admin/sources/files?limit=2&cursor=${encodeURIComponent(page.nextCursor!)}`,
      {
        headers: bearer(api.token),
      },
    );
    expect(((await next.json()) as { items: unknown[] }).items).toHaveLength(1);
  });

  it("imports a collector's payout CSV through its column mapping: equal payments stay two rows, each linked by its reference", async () => {
    const [first, second] = files.payments.filter((p) => p.paidOn.startsWith(SOURCE_MONTH));
    const euros = (cents: number) => (cents / 100).toFixed(2).replace('.', ',');
    const csv = [
      'Referência;Valor;Comissão;Valor líquido;Transferência;Data da transferência',
      `Pagamento ${first!.reference};${euros(first!.grossCents)};0,50;${euros(first!.grossCents - 50)};MB-0001;05-02-2026`,
      `Pagamento ${second!.reference};${euros(second!.grossCents)};0,50;${euros(second!.grossCents - 50)};MB-0001;05-02-2026`,
      `Pagamento ${second!.reference};${euros(second!.grossCents)};0,50;${euros(second!.grossCents - 50)};MB-0001;05-02-2026`,
      '',
    ].join('\n');
    const mapping = {
      payoutId: 'Transferência',
      date: 'Data da transferência',
      gross: 'Valor',
      fee: 'Comissão',
      net: 'Valor líquido',
      reference: 'Referência',
    };
    const bytes = utf8(csv);
    const unmapped = await postSource(api, bytes, {
      kind: 'COLLECTOR_PAYOUTS',
      fileName: 'mb.csv',
      expected: { rows: 3, totalCents: 0 },
    });
    expect(unmapped.status).toBe(422);
    expect(await unmapped.json()).toMatchObject({ code: 'SOURCE_MAPPING_REQUIRED' });
    const mappedStripe = await postSource(api, stripe, {
      kind: 'STRIPE_PAYOUTS',
      fileName: 'x.csv',
      mapping,
    });
    expect(mappedStripe.status).toBe(422);
    expect(await mappedStripe.json()).toMatchObject({ code: 'SOURCE_MAPPING_NOT_ALLOWED' });

    const imported = await importSource(api, bytes, {
      kind: 'COLLECTOR_PAYOUTS',
      fileName: 'mb.csv',
      mapping,
    });
    expect(imported.job?.result).toMatchObject({ newRows: 3, payouts: 1, linked: 3, unlinked: 0 });
    const { rows } = await api.db.query<{ settlement: string; n: string }>(
      `SELECT coalesce(s.case_id, s.subscription_payment_id)::text AS settlement, count(*) AS n
         FROM provider_payout_rows r JOIN settlements s ON s.id = r.settlement_id
         JOIN source_files f ON f.id = r.source_file_id AND f.kind = 'COLLECTOR_PAYOUTS'
        GROUP BY 1 ORDER BY 2`,
    );
    expect(rows.map((r) => [r.settlement, Number(r.n)])).toEqual([
      [first!.reference, 1],
      [second!.reference, 2],
    ]);
    const { rows: payout } = await api.db.query<{ amount_cents: string; net_cents: string }>(
      `SELECT amount_cents, net_cents FROM provider_payouts WHERE provider_payout_id = 'MB-0001'`,
    );
    const net = first!.grossCents + 2 * second!.grossCents - 150;
    expect(payout.map((p) => [Number(p.amount_cents), Number(p.net_cents)])).toEqual([[net, net]]);
  });

  it('answers a repeated Idempotency-Key with the same job, and imports once', async () => {
    const mapping = { payoutId: 'payout', date: 'date', net: 'net', reference: 'ref' };
    const bytes = utf8('payout;date;net;ref\nMB-0777;06-02-2026;12,34;one\n');
    const post = {
      kind: 'COLLECTOR_PAYOUTS' as const,
      fileName: 'mb-0777.csv',
      mapping,
      headers: { 'idempotency-key': 'mb-0777-once' },
    };
    const first = await postSource(api, bytes, post);
    expect(first.status).toBe(202);
    const { job } = (await first.json()) as { job: { id: string } };
    await finishedSourceJob(api, job.id);
    const again = await postSource(api, bytes, post);
    expect(again.status).toBe(202);
    expect(((await again.json()) as { job: { id: string; status: string } }).job).toMatchObject({
      id: job.id,
      status: 'DONE',
    });
    expect(await count(api.db, `source_files WHERE file_name = 'mb-0777.csv'`)).toBe(1);
  });
});
