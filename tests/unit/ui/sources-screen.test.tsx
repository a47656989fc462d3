// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SourceUploadRequest } from '../../../src/api/sources';
import { I18nProvider } from '../../../src/i18n/i18n';
import { enGB, ptPT } from '../../support/messages';
import { fillJsdomGaps, layOutTables } from './jsdom-gaps';

/**
 * The payouts and invoices screen with its real preview: the worker's own reading (`previewSource`) runs
 * in the test instead of a Worker, on the fixtures; the API answers are the test's. What the admin sees
 * of a Stripe report, a SAF-T file and a refusal, what is sent, and the files list.
 */

const FIXTURES = join(import.meta.dirname, '../../fixtures/sources');
const STRIPE = readFileSync(join(FIXTURES, 'made-here-stripe-payout-reconciliation-itemized-5.csv'), 'utf8');
const SAFT = readFileSync(join(FIXTURES, 'made-here-saft-pt-marketplace-utf8.xml'), 'utf8');
const BALANCE = readFileSync(join(FIXTURES, 'made-here-stripe-balance-payouts-itemized-5.csv'), 'utf8');

vi.mock('../../../src/features/sources/preview-client', async () => {
  const { previewSource } = await import('../../../src/features/sources/read-source');
  return {
    previewSourceInWorker: async (
      file: Blob,
      request: Parameters<typeof previewSource>[0],
      rows: { addChunk(count: number, json: string): void; addKeys(ids: string[]): void; keys: string[] },
    ) => {
      // What the real client hands the worker: the file's bytes (read with jsdom's FileReader).
      const bytes = await new Promise<ArrayBuffer>((resolve) => {
        const reader = new FileReader();
        reader.onload = () => resolve(reader.result as ArrayBuffer);
        reader.readAsArrayBuffer(file);
      });
      const { outcome, details } = previewSource({ ...request, bytes }, (message) => {
        if (message.type === 'rows') rows.addChunk(message.count, message.json);
        else if (message.type === 'ids') rows.addKeys(message.ids);
      });
      return { outcome: { ...outcome, ids: rows.keys }, details };
    },
  };
});

const uploads: SourceUploadRequest[] = [];
/** What the next upload is refused with, as `ApiError` carries it (its code, the body's facts). */
let rejectUpload: { code: string; details: Record<string, unknown> } | null = null;
/** What the job is answered as instead of DONE: a SAF-T over 32 MiB that its job found against the XSD. */
let failedJob: Record<string, unknown> | null = null;
/** What a finished job is answered as instead of the Stripe report's: a Balance report's. */
let finishedJob: Record<string, unknown> | null = null;
const FILE_ROW = {
  id: '00000000-0000-4000-8000-000000000001',
  kind: 'SAFT_INVOICES',
  fileName: 'saft-2026-10.xml',
  importedAt: '2026-11-02T09:30:00.000Z',
  importedBy: 'Ana Admin',
  rows: 3,
  newRows: 3,
  duplicatesSkipped: 0,
  totalCents: 12_345,
  controlTotals: 'checked',
};
vi.mock('../../../src/api/sources', async (original) => ({
  ...(await original<typeof import('../../../src/api/sources')>()),
  fetchKnownSourceRows: async (_kind: string, ids: string[]) => ({
    known: ids
      .filter((id) => id.endsWith('/txn_1QaA0001'))
      .map((id) => ({
        id,
        sourceFileId: '00000000-0000-4000-8000-0000000000aa',
        fileName: 'setembro.csv',
        importedAt: '2026-10-06T08:00:00.000Z',
      })),
  }),
  startSourceImport: async (upload: SourceUploadRequest) => {
    uploads.push(upload);
    if (rejectUpload) throw rejectUpload;
    return {
      job: {
        id: '00000000-0000-4000-8000-0000000000bb',
        kind: upload.kind,
        fileName: upload.fileName,
        status: 'RUNNING',
        phase: 'importing',
        done: 0,
        total: upload.expectedRows,
        result: null,
        errorCode: null,
        createdAt: '2026-11-02T09:30:00.000Z',
      },
    };
  },
  fetchSourceImport: async () =>
    failedJob ??
    finishedJob ?? {
      id: '00000000-0000-4000-8000-0000000000bb',
      kind: 'STRIPE_PAYOUTS',
      fileName: 'stripe.csv',
      status: 'DONE',
      phase: 'done',
      done: 8,
      total: 8,
      result: {
        sourceFileId: FILE_ROW.id,
        newRows: 7,
        duplicatesSkipped: 1,
        payouts: 2,
        documents: null,
        creditNotes: null,
        cancelled: null,
        linked: 6,
        unlinked: 1,
      },
      errorCode: null,
      createdAt: '2026-11-02T09:30:00.000Z',
    },
  fetchSourceFiles: async () => ({ items: [FILE_ROW], nextCursor: null, total: 1 }),
}));

const { default: SourcesScreen } = await import('../../../src/features/sources/SourcesScreen');

beforeAll(fillJsdomGaps);
layOutTables();
afterEach(() => {
  cleanup();
  uploads.length = 0;
});

const en = enGB.sources;

async function open(locale: 'en-GB' | 'pt-PT' = 'en-GB') {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nProvider initial={locale}>
        <SourcesScreen />
      </I18nProvider>
    </QueryClientProvider>,
  );
  await screen.findByTestId('source-files');
}

async function drop(name: string, content: string | Uint8Array<ArrayBuffer>) {
  await act(async () =>
    fireEvent.change(screen.getByTestId('source-file'), { target: { files: [new File([content], name)] } }),
  );
  // The read, the known rows: each a promise settling in turn.
  for (let i = 0; i < 10; i++) await act(async () => new Promise((resolve) => setTimeout(resolve, 0)));
}

describe('the payouts and invoices screen', () => {
  it('previews a Stripe report by its bytes: payouts with kinds and sums, each row new or imported from its file; imports the new rows', async () => {
    await open();
    await drop('stripe.csv', STRIPE);
    const summary = screen.getByTestId('source-summary').textContent ?? '';
    expect(summary).toContain('Stripe · 8 rows');
    expect(summary).toContain(en.import.known.replace('{{fresh}}', '7').replace('{{known}}', '1'));
    expect(summary).toContain('1 row already imported from setembro.csv');
    const payouts = screen.getByTestId('source-payouts');
    expect(within(payouts).getAllByText('po_1QaAmarketplace01')).toHaveLength(1);
    expect(payouts.textContent).toContain(`${en.rowKind.refund}: 1 · -€60.00`);
    expect(payouts.textContent).toContain(`${en.rowKind.dispute}: `);
    const table = screen.getByTestId('source-preview');
    expect(table.textContent).toContain(en.rowKind.fee);
    expect(table.textContent).toContain('Imported from setembro.csv');
    expect(table.querySelectorAll('tr[data-known]')).toHaveLength(1);
    const submit = screen.getByRole('button', { name: 'Import 7 new rows' });
    await act(async () => {
      fireEvent.click(submit);
      fireEvent.click(submit);
    });
    for (let i = 0; i < 5; i++) await act(async () => new Promise((resolve) => setTimeout(resolve, 600)));
    expect(uploads).toHaveLength(1);
    expect(uploads[0]).toMatchObject({
      fileName: 'stripe.csv',
      kind: 'STRIPE_PAYOUTS',
      mapping: null,
      expectedRows: 8,
      expectedTotalCents: 19_321,
    });
    const result = await screen.findByTestId('source-result');
    expect(result.textContent).toContain('New rows: 7');
    expect(result.textContent).toContain('Payouts: 2');
    expect(result.textContent).not.toContain('Documents');
  });

  it("previews Stripe's Balance report of payouts by its bytes: each payout's amount, arrival and status, the failed one owing no bank credit; imports them", async () => {
    await open();
    await drop('balance.csv', BALANCE);
    expect(screen.getByTestId('source-summary').textContent).toContain(
      `${en.kindShort.STRIPE_BALANCE_PAYOUTS} · 3 rows`,
    );
    const stated = screen.getByTestId('source-stated-payouts');
    expect(stated.textContent).toContain('3 payouts');
    expect(stated.textContent).toContain('€234.71');
    expect(screen.getByTestId('source-withdrawn').textContent).toBe(
      en.stated.withdrawn.replace('{{count}}', '1'),
    );
    const table = screen.getByTestId('source-preview');
    expect(table.textContent).toContain(en.payoutStatus.in_transit);
    expect(table.textContent).toContain('€100.99');
    const withdrawn = table.querySelectorAll('tr[data-withdrawn]');
    expect(withdrawn).toHaveLength(1);
    expect(withdrawn[0]!.textContent).toContain('po_1QcCmarketplace03');
    expect(withdrawn[0]!.textContent).toContain(en.payoutStatus.failed);
    finishedJob = {
      id: '00000000-0000-4000-8000-0000000000bb',
      kind: 'STRIPE_BALANCE_PAYOUTS',
      fileName: 'balance.csv',
      status: 'DONE',
      phase: 'done',
      done: 3,
      total: 3,
      result: {
        sourceFileId: FILE_ROW.id,
        newRows: 3,
        duplicatesSkipped: 0,
        payouts: 3,
        documents: null,
        creditNotes: null,
        cancelled: null,
        linked: 2,
        unlinked: 1,
      },
      errorCode: null,
      createdAt: '2026-11-02T09:30:00.000Z',
    };
    const submit = screen.getByRole('button', { name: 'Import 3 new rows' });
    await act(async () => fireEvent.click(submit));
    for (let i = 0; i < 3; i++) await act(async () => new Promise((resolve) => setTimeout(resolve, 600)));
    expect(uploads).toHaveLength(1);
    expect(uploads[0]).toMatchObject({
      fileName: 'balance.csv',
      kind: 'STRIPE_BALANCE_PAYOUTS',
      mapping: null,
      expectedRows: 3,
      expectedTotalCents: 23_471,
    });
    // A stated payout links to no payment: the result counts those checked against their rows.
    const result = await screen.findByTestId('source-result');
    expect(result.textContent).toContain(en.result.amountChecked.replace('{{count}}', '2'));
    expect(result.textContent).toContain(en.result.awaitingRows.replace('{{count}}', '1'));
    expect(result.textContent).not.toContain(en.result.linked.replace('{{count}}', '2'));
    finishedJob = null;
  });

  it("says a Balance report's failed payout owes no bank credit in Portuguese too", async () => {
    await open('pt-PT');
    await drop('saldo.csv', BALANCE);
    const table = screen.getByTestId('source-preview');
    expect(table.querySelector('tr[data-withdrawn]')!.textContent).toContain(
      ptPT.sources.payoutStatus.failed,
    );
    expect(screen.getByTestId('source-withdrawn').textContent).toBe(
      ptPT.sources.stated.withdrawn.replace('{{count}}', '1'),
    );
  });

  it('previews a SAF-T file: documents with type and status, the credit note as such, control totals checked, the cancelled document apart', async () => {
    await open();
    await drop('saft.xml', SAFT);
    const invoices = screen.getByTestId('source-invoices');
    expect(screen.getByTestId('source-control-totals').textContent).toMatch(
      /^Control totals checked — documents: 4/,
    );
    expect(within(invoices).getByTestId('source-cancelled').textContent).toContain('FR AVC/3');
    const table = screen.getByTestId('source-preview').textContent ?? '';
    expect(table).toContain('NC (credit note)');
    expect(table).toContain(en.status.N);
    expect(table).not.toContain('FR AVC/3');
  });

  it('shows a refusal with its line and both figures, in Portuguese too, and offers nothing to import', async () => {
    const text = `${STRIPE}po_1QaAmarketplace01,2026-10-05 00:00:00,txn_1QaApayout,,,,,eur,-100.00,0.00,-100.00,payout,po_1QaAmarketplace01,,,,,,\n`;
    await open('pt-PT');
    await drop('stripe.csv', text);
    const refused = screen.getByTestId('source-refused');
    expect(refused.querySelector('p')?.textContent).toBe(ptPT.errorMessages.STRIPE_PAYOUT_SUM_MISMATCH);
    const facts = screen.getByTestId('source-refusal-facts').textContent ?? '';
    expect(facts).toContain('Linha 2');
    expect(facts).toMatch(/po_1QaAmarketplace01: a Stripe indica 100,00\s€, as suas linhas somam 100,99\s€/);
    expect(screen.queryByRole('button', { name: /^Importar/ })).toBeNull();
    expect(screen.queryByTestId('source-preview')).toBeNull();
  });

  it("shows a server's refusal with the facts of its body: both counts and totals, a SAF-T schema's faults", async () => {
    // The server read other rows than the preview (the file changed on disk between the two).
    rejectUpload = {
      code: 'SOURCE_PREVIEW_MISMATCH',
      details: { expectedRows: 3, foundRows: 2, expectedTotalCents: 12_000, foundTotalCents: 9_000 },
    };
    await open();
    await drop('saft.xml', SAFT);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /^Import/ })));
    for (let i = 0; i < 5; i++) await act(async () => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(screen.getByTestId('source-refused').querySelector('p')?.textContent).toBe(
      (enGB.errorMessages as Record<string, string>).SOURCE_PREVIEW_MISMATCH,
    );
    expect(screen.getByTestId('source-refusal-facts').textContent).toBe(
      'Preview — rows: 3, total: €120.00; server — rows: 2, total: €90.00',
    );
    cleanup();
    // A SAF-T refusal whose body lists the official schema's first faults, each with its line.
    rejectUpload = {
      code: 'SAFT_SCHEMA_INVALID',
      details: { schemaErrors: ['line 12: Element Foo: not expected'] },
    };
    await open();
    await drop('saft.xml', SAFT);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /^Import/ })));
    for (let i = 0; i < 5; i++) await act(async () => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(screen.getByTestId('source-refusal-facts').textContent).toContain(
      'line 12: Element Foo: not expected',
    );
    rejectUpload = null;
  });

  it("shows a job failed on the official XSD with the faults' lines, in Portuguese too", async () => {
    failedJob = {
      id: '00000000-0000-4000-8000-0000000000bb',
      kind: 'SAFT_INVOICES',
      fileName: 'saft.xml',
      status: 'FAILED',
      phase: 'checking',
      done: 3,
      total: 3,
      result: null,
      errorCode: 'SAFT_SCHEMA_INVALID',
      schemaErrors: ["line 81234: Element 'HashControl': This element is not expected."],
      createdAt: '2026-11-02T09:30:00.000Z',
    };
    await open('pt-PT');
    await drop('saft.xml', SAFT);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /^Importar/ })));
    for (let i = 0; i < 5; i++) await act(async () => new Promise((resolve) => setTimeout(resolve, 600)));
    const failed = screen.getByRole('alert');
    expect(failed.querySelector('p')?.textContent).toBe(ptPT.errorMessages.SAFT_SCHEMA_INVALID);
    expect(within(failed).getByTestId('source-refusal-facts').textContent).toBe(
      "line 81234: Element 'HashControl': This element is not expected.",
    );
    failedJob = null;
  });

  it('refuses a compressed file picked as a Stripe report before reading it, naming what it is', async () => {
    await open();
    await act(async () =>
      fireEvent.change(screen.getByTestId('source-kind'), { target: { value: 'STRIPE_PAYOUTS' } }),
    );
    await drop('stripe.csv.gz', new Uint8Array([0x1f, 0x8b, 0x08, 0x00, 0x72]));
    expect(screen.getByTestId('source-refused').querySelector('p')?.textContent).toBe(
      (enGB.errorMessages as Record<string, string>).SOURCE_NOT_THIS_KIND,
    );
    expect(screen.getByTestId('source-refusal-facts').textContent).toContain('The file is: gzip');
  });

  it('lists the imported files with kind, rows, total and whether their control totals were checked', async () => {
    await open();
    const row = screen.getByTestId('source-files').querySelector('tr[data-file="saft-2026-10.xml"]');
    const cells = [...(row?.querySelectorAll('td') ?? [])].map((cell) => cell.textContent);
    expect(cells.slice(0, 7)).toEqual([
      'saft-2026-10.xml',
      'SAF-T',
      '3',
      '3',
      '0',
      '€123.45',
      en.files.checked,
    ]);
    expect(cells[8]).toBe('Ana Admin');
  });
});
