// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import lazyEnGB from '../../../locales/statements.en-GB.json';
import { statementImportMachine } from '../../../machines/statement-import';
import { I18nProvider } from '../../../src/i18n/i18n';
import { expectedAfter, type ModelEvent, type Request, walksOf } from '../../machines/model';
import { type StatementImportExpected, statementImportModel } from '../../machines/statement-import.model';
import { fillJsdomGaps } from './jsdom-gaps';

/**
 * The import panel driven through the statementImport model's walks (DESIGN §7: the real UI through the
 * same paths): each admin event is what the panel offers (the file input, its buttons, Enter twice on
 * submit), each server or worker outcome settles the stubbed actor, and after every step the panel is
 * checked against the model's table — written from the specification, not from the machine.
 */

const requests: Request[] = [];
const pending = new Map<string, { resolve(value: unknown): void; reject(error: unknown): void }>();
vi.mock('../../../src/features/statements/import-actors', () => ({
  statementImportWithConsole: () =>
    statementImportMachine.provide({
      actors: Object.fromEntries(
        ['read', 'known', 'submit', 'poll'].map((id) => [
          id,
          fromPromise<unknown, unknown>(({ input }) => {
            requests.push({ actor: id, input });
            return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
          }),
        ]),
      ),
    }),
}));

vi.mock('../../../src/api/statements', async (original) => ({
  ...(await original<typeof import('../../../src/api/statements')>()),
  fetchStatementAccounts: async () => [
    {
      accountIban: 'PT50000201231234567890154',
      currency: 'EUR',
      statementCount: 4,
      lastPeriodEnd: '2026-04-30',
      lastClosingBalanceCents: 10_000,
    },
  ],
}));

const { ImportPanel } = await import('../../../src/features/statements/ImportPanel');
await import('../../../src/features/statements/statements-messages');

beforeAll(fillJsdomGaps);
afterEach(() => {
  cleanup();
  requests.length = 0;
  pending.clear();
});

const text = lazyEnGB.statements;
const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name]));
const OUTCOME = /^xstate\.(done|error)\.actor\.(.+)$/;

/** A file as the input hands it over; its size is what the flow checks first. */
function fileOf(spec: { name: string; size: number }): File {
  const file = new File(['x'], spec.name);
  Object.defineProperty(file, 'size', { value: spec.size });
  return file;
}

const button = (name: string) => screen.getByRole('button', { name });

/** The "import anyway" dialog: the event's note typed, its button pressed twice, Esc if it stays open. */
async function writeNote(event: ModelEvent) {
  const note = screen.getByTestId('statement-mismatch-note');
  await act(async () => fireEvent.change(note, { target: { value: event.mismatchNote ?? '' } }));
  const confirm = screen.getByRole('button', { name: text.mismatch.import });
  await act(async () => {
    fireEvent.click(confirm);
    fireEvent.click(confirm);
  });
  // A note the server would not take: the button does nothing, and Esc closes the dialog.
  const dialog = screen.queryByRole('dialog');
  if (dialog) await act(async () => fireEvent.keyDown(dialog, { key: 'Escape' }));
}

async function perform(event: ModelEvent) {
  const outcome = OUTCOME.exec(event.type);
  if (outcome?.[2]) {
    const running = pending.get(outcome[2]);
    pending.delete(outcome[2]);
    await act(async () =>
      outcome[1] === 'done' ? running?.resolve(event.output) : running?.reject(event.error),
    );
    return;
  }
  const next = await act(async () => {
    switch (event.type) {
      case 'file.chosen':
        fireEvent.change(screen.getByTestId('statement-file'), {
          target: { files: [fileOf(event.file as { name: string; size: number })] },
        });
        return;
      case 'mapping.accept':
        fireEvent.click(button(text.mapping.accept));
        return;
      case 'mapping.edit':
        fireEvent.click(button(text.mapping.edit));
        return;
      case 'submit': {
        const anyway = screen.queryByRole('button', { name: text.import.importAnyway });
        if (anyway) {
          // Balances that do not add up: the note dialog, its note typed, then its own button (twice).
          fireEvent.click(anyway);
          await Promise.resolve();
          return 'note';
        }
        // Twice: a second Enter while the first is on its way must send nothing.
        const submit = screen.getAllByRole('button').find((b) => b.textContent?.startsWith('Import'));
        fireEvent.click(submit as HTMLElement);
        fireEvent.click(submit as HTMLElement);
        return;
      }
      case 'account.choose': {
        const field = screen.getByRole('combobox', { name: text.account.label });
        fireEvent.change(field, { target: { value: event.accountIban } });
        fireEvent.submit(field);
        return;
      }
      case 'account.change':
        fireEvent.click(button(text.account.change));
        return;
      case 'retry':
        fireEvent.click(button(text.import.retry));
        return;
      case 'cancel':
        // Cancel while working on a file; Close once it is imported or refused.
        fireEvent.click(
          screen.queryByRole('button', { name: text.import.cancel }) ?? button(text.import.close),
        );
        return;
    }
  });
  if (next === 'note') await writeNote(event);
}

/** What the panel must show for the model's expectation. */
function check(expected: StatementImportExpected, where: string) {
  expect(
    requests.map((r) => r.actor),
    `${where}: requests`,
  ).toEqual(expected.requests.map((r) => r.actor));
  const refused = screen.queryByTestId('statement-refused');
  if (expected.state === 'refused') {
    const file = expected.refusedBecauseOf ?? '';
    expect(refused?.querySelector('p')?.textContent, where).toBe(
      fill(text.refused[expected.refusal as keyof typeof text.refused], { file }),
    );
  } else expect(refused, where).toBeNull();
  expect(screen.queryByTestId('statement-result') !== null, `${where}: summary`).toBe(
    expected.state === 'imported',
  );
  expect(screen.queryByTestId('statement-progress') !== null, `${where}: progress`).toBe(
    expected.state === 'submitting' || expected.state === 'importing',
  );
  expect(screen.queryByRole('heading', { name: text.mapping.title }) !== null, `${where}: mapping`).toBe(
    expected.state === 'mapping',
  );
  expect(screen.queryByRole('button', { name: text.import.retry }) !== null, `${where}: retry`).toBe(
    expected.state === 'failed',
  );
  // The file input is offered unless the file is on its way.
  expect(screen.queryByTestId('statement-file') !== null, `${where}: input`).toBe(
    expected.state !== 'submitting' && expected.state !== 'importing',
  );
  expect(screen.queryByRole('combobox', { name: text.account.label }) !== null, `${where}: account`).toBe(
    expected.state === 'account',
  );
  if (expected.state === 'account')
    expect(screen.getByTestId('statement-known').textContent).toBe(text.import.accountFirst);
  if (expected.state === 'checking' || expected.state === 'preview') {
    const known = screen.getByTestId('statement-known').textContent;
    if (expected.known) expect(known).toBe(fill(text.import.known, { fresh: 2, known: 1 }));
    else if (expected.knownFailed) expect(known).toBe(text.import.knownFailed);
    else expect(known).toBe(text.import.checking);
  }
}

// Walks whose every admin step the panel offers as a control (an applied mapping needs a changed
// column: the mapping editor's own choice, covered by the machine's walks).
const UI_EVENTS = new Set([
  'file.chosen',
  'mapping.accept',
  'mapping.edit',
  'account.choose',
  'account.change',
  'submit',
  'retry',
  'cancel',
]);
const journeys = walksOf(statementImportModel, undefined)
  .map((w) => w.events)
  .filter((events) => {
    let expected = statementImportModel.initial(undefined);
    return events.every((event) => {
      const drivable = OUTCOME.test(event.type) || UI_EVENTS.has(event.type);
      const before = expected;
      const row = statementImportModel.transitions[expected.state]?.[event.type];
      expected = expectedAfter(statementImportModel, expected, event);
      // Only events the state answers: a control the panel does not show cannot be pressed.
      const offered =
        (event.type !== 'mapping.edit' || before.preview?.csv) &&
        (event.type !== 'account.change' || before.account !== null);
      return (
        drivable &&
        offered &&
        row !== undefined &&
        !(event.type === 'submit' && event.idempotencyKey === 'key-2')
      );
    });
  })
  .filter(
    (events, i, all) =>
      !all.some(
        (o, j) =>
          j !== i &&
          o.length > events.length &&
          events.every((e, k) => JSON.stringify(o[k]) === JSON.stringify(e)),
      ),
  );

describe('the statement import panel, driven through the statementImport walks', () => {
  it('has walks to drive', () => expect(journeys.length).toBeGreaterThan(20));
  for (const events of journeys) {
    it(events.map((e) => e.type.replace('xstate.', '')).join(' → '), async () => {
      render(
        <QueryClientProvider client={new QueryClient()}>
          <I18nProvider initial="en-GB">
            <ImportPanel onImported={() => {}} />
          </I18nProvider>
        </QueryClientProvider>,
      );
      let expected = statementImportModel.initial(undefined);
      check(expected, 'at start');
      for (const [i, event] of events.entries()) {
        expected = expectedAfter(statementImportModel, expected, event);
        await perform(event);
        check(expected, `after step ${i + 1} (${event.type})`);
      }
    });
  }
});

describe('the statement import panel keeps the focus', () => {
  const statement = (accountIban: string | null, consistent: boolean) => ({
    accountIban,
    currency: 'EUR',
    statementId: null,
    sequence: null,
    periodStart: '2026-05-01',
    periodEnd: '2026-05-31',
    balance: { opening: 10_000, closing: consistent ? 9_000 : 8_000, consistent },
    totalCents: -1_000,
    firstEntry: 0,
    entryCount: 1,
  });
  const outcome = (accountIban: string | null, consistent: boolean) => ({
    format: 'csv',
    lineCount: 1,
    totalCents: -1_000,
    problem: null,
    keys: ['a'.repeat(64)],
    csv: { header: ['Data', 'Montante'], mapping: { bookingDate: 0, amount: 1 }, guessed: false },
    statements: [statement(accountIban, consistent)],
  });
  const settle = (id: string, output: unknown) =>
    act(async () => {
      const running = pending.get(id);
      pending.delete(id);
      running?.resolve(output);
    });
  const start = async () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <I18nProvider initial="en-GB">
          <ImportPanel onImported={() => {}} />
        </I18nProvider>
      </QueryClientProvider>,
    );
    await act(async () =>
      fireEvent.change(screen.getByTestId('statement-file'), {
        target: { files: [fileOf({ name: 'a.csv', size: 9 })] },
      }),
    );
  };

  it('in the account field when the file names none, then on Import once the account is given', async () => {
    await start();
    await settle('read', outcome(null, true));
    const field = screen.getByRole('combobox', { name: text.account.label });
    expect(document.activeElement).toBe(field);
    await act(async () => fireEvent.change(field, { target: { value: 'PT50000201231234567890154' } }));
    await act(async () => fireEvent.submit(field));
    expect(requests.at(-1)).toEqual({
      actor: 'read',
      input: expect.objectContaining({ accountIban: 'PT50000201231234567890154' }),
    });
    await settle('read', outcome(null, true));
    expect(document.activeElement?.textContent).toBe(text.import.submit);
    expect(requests.at(-1)?.input).toEqual({
      statements: [
        expect.objectContaining({ accountIban: 'PT50000201231234567890154', keys: ['a'.repeat(64)] }),
      ],
    });
  });

  it('back on "Import anyway" when its dialog is closed, and on the progress once the note is sent', async () => {
    await start();
    await settle('read', outcome('PT50000201231234567890154', false));
    await settle('known', { newLines: 1, knownLines: 0, files: [] });
    const anyway = screen.getByRole('button', { name: text.import.importAnyway });
    anyway.focus();
    await act(async () => fireEvent.click(anyway));
    const note = screen.getByTestId('statement-mismatch-note');
    expect(document.activeElement).toBe(note);
    await act(async () => fireEvent.keyDown(note, { key: 'Escape' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(anyway);
    await act(async () => fireEvent.click(anyway));
    const again = screen.getByTestId('statement-mismatch-note');
    await act(async () => fireEvent.change(again, { target: { value: 'Closing corrected by the bank' } }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: text.mismatch.import })));
    expect(requests.at(-1)).toEqual({
      actor: 'submit',
      input: expect.objectContaining({ mismatchNote: 'Closing corrected by the bank', accountIban: null }),
    });
    expect(document.activeElement).toBe(screen.getByTestId('statement-progress'));
  });
});
