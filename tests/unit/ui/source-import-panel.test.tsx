// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { sourceImportMachine } from '../../../machines/source-import';
import { I18nProvider } from '../../../src/i18n/i18n';
import { expectedAfter, type ModelEvent, type Request, walksOf } from '../../machines/model';
import { type SourceImportExpected, sourceImportModel } from '../../machines/source-import.model';
import { enGB } from '../../support/messages';
import { fillJsdomGaps } from './jsdom-gaps';

/**
 * The payouts and invoices import panel driven through the sourceImport model's walks (DESIGN §7: the
 * real UI through the same paths): each admin event is what the panel offers (the kind select, the file
 * input, its buttons, Enter twice on Import), each worker or server outcome settles the stubbed actor,
 * and after every step the panel is checked against the model's table — written from issue 31, not from
 * the machine.
 */

const requests: Request[] = [];
const pending = new Map<string, { resolve(value: unknown): void; reject(error: unknown): void }>();
vi.mock('../../../src/features/sources/import-actors', async (original) => ({
  ...(await original<typeof import('../../../src/features/sources/import-actors')>()),
  sourceImportWithConsole: () =>
    sourceImportMachine.provide({
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

const { SourceImportPanel } = await import('../../../src/features/sources/ImportPanel');
await import('../../../src/features/sources/sources-messages');

beforeAll(fillJsdomGaps);
afterEach(() => {
  cleanup();
  requests.length = 0;
  pending.clear();
});

const text = enGB.sources;
const errors = enGB.errorMessages as Record<string, string>;
const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name]));
const OUTCOME = /^xstate\.(done|error)\.actor\.(.+)$/;

function fileOf(spec: { name: string; size: number }): File {
  const file = new File(['x'], spec.name);
  Object.defineProperty(file, 'size', { value: spec.size });
  return file;
}

const button = (name: string) => screen.getByRole('button', { name });

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
  await act(async () => {
    switch (event.type) {
      case 'kind.choose':
        fireEvent.change(screen.getByTestId('source-kind'), { target: { value: event.kind ?? 'AUTO' } });
        return;
      case 'file.chosen':
        fireEvent.change(screen.getByTestId('source-file'), {
          target: { files: [fileOf(event.file as { name: string; size: number })] },
        });
        return;
      case 'mapping.apply': {
        // The columns the event names, picked in the editor, then its button.
        const mapping = event.mapping as Record<string, number>;
        for (const field of ['payoutId', 'date', 'net'])
          fireEvent.change(screen.getByTestId(`mapping-${field}`), {
            target: { value: String(mapping[field]) },
          });
        // "Apply" when the choice changed the columns shown, "Use" when they were these already.
        fireEvent.click(
          screen.queryByRole('button', { name: text.mapping.apply }) ?? button(text.mapping.accept),
        );
        return;
      }
      case 'mapping.edit':
        fireEvent.click(button(text.mapping.edit));
        return;
      case 'submit': {
        // Twice: a second Enter while the first is on its way must send nothing.
        const submit = screen.getAllByRole('button').find((b) => b.textContent?.startsWith('Import'));
        fireEvent.click(submit as HTMLElement);
        fireEvent.click(submit as HTMLElement);
        return;
      }
      case 'retry':
        fireEvent.click(button(text.import.retry));
        return;
      case 'cancel':
        fireEvent.click(
          screen.queryByRole('button', { name: text.import.cancel }) ?? button(text.import.close),
        );
        return;
    }
  });
}

/** The words a refusal shows first: the screen's own, else the error code's. */
const refusalWords = (code: string) =>
  code === 'PREVIEW_FAILED' ? text.refused.PREVIEW_FAILED : (errors[code] ?? enGB.errorMessages.fallback);

function check(expected: SourceImportExpected, where: string) {
  expect(
    requests.map((r) => r.actor),
    `${where}: requests`,
  ).toEqual(expected.requests.map((r) => r.actor));
  expect(
    (screen.queryByTestId('source-kind') as HTMLSelectElement | null)?.value ?? null,
    `${where}: kind`,
  ).toBe(
    expected.state === 'submitting' || expected.state === 'importing' ? null : (expected.kind ?? 'AUTO'),
  );
  const refused = screen.queryByTestId('source-refused');
  if (expected.state === 'refused' && expected.refusal) {
    expect(refused?.querySelector('p')?.textContent, where).toBe(refusalWords(expected.refusal.code));
    // The facts beside the words: both numbers of a payout that does not add up, with its line.
    if (expected.refusal.code === 'STRIPE_PAYOUT_SUM_MISMATCH') {
      const facts = screen.getByTestId('source-refusal-facts').textContent ?? '';
      expect(facts).toContain(fill(text.facts.line, { line: expected.refusal.line as number }));
      expect(facts).toContain(String(expected.refusal.facts.payoutId));
    }
  } else expect(refused, where).toBeNull();
  expect(screen.queryByTestId('source-result') !== null, `${where}: result`).toBe(
    expected.state === 'imported',
  );
  expect(screen.queryByTestId('source-progress') !== null, `${where}: progress`).toBe(
    expected.state === 'submitting' || expected.state === 'importing',
  );
  expect(screen.queryByRole('heading', { name: text.mapping.title }) !== null, `${where}: mapping`).toBe(
    expected.state === 'mapping',
  );
  expect(screen.queryByRole('button', { name: text.import.retry }) !== null, `${where}: retry`).toBe(
    expected.state === 'failed',
  );
  expect(screen.queryByTestId('source-file') !== null, `${where}: input`).toBe(
    expected.state !== 'submitting' && expected.state !== 'importing',
  );
  if (expected.state === 'checking' || expected.state === 'preview') {
    const known = screen.getByTestId('source-known').textContent;
    const answer = expected.known as { newRows: number; knownRows: number } | null;
    if (answer)
      expect(known).toBe(fill(text.import.known, { fresh: answer.newRows, known: answer.knownRows }));
    else if (expected.knownFailed) expect(known).toBe(text.import.knownFailed);
    else expect(known).toBe(text.import.checking);
  } else expect(screen.queryByTestId('source-known'), where).toBeNull();
}

// Walks whose every admin step the panel offers as a control; the second Enter's own key is the
// first Enter's double click above.
const UI_EVENTS = new Set([
  'kind.choose',
  'file.chosen',
  'mapping.apply',
  'mapping.edit',
  'submit',
  'retry',
  'cancel',
]);
const journeys = walksOf(sourceImportModel, undefined)
  .map((w) => w.events)
  .filter((events) => {
    let expected = sourceImportModel.initial(undefined);
    return events.every((event) => {
      const before = expected;
      const row = sourceImportModel.transitions[expected.state]?.[event.type];
      expected = expectedAfter(sourceImportModel, expected, event);
      const offered = event.type !== 'mapping.edit' || before.preview?.csv;
      return (
        (OUTCOME.test(event.type) || UI_EVENTS.has(event.type)) &&
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

describe('the payouts and invoices import panel, driven through the sourceImport walks', () => {
  it('has walks to drive', () => expect(journeys.length).toBeGreaterThan(20));
  for (const events of journeys) {
    it(events.map((e) => e.type.replace('xstate.', '')).join(' → '), async () => {
      render(
        <QueryClientProvider client={new QueryClient()}>
          <I18nProvider initial="en-GB">
            <SourceImportPanel />
          </I18nProvider>
        </QueryClientProvider>,
      );
      let expected = sourceImportModel.initial(undefined);
      check(expected, 'at start');
      for (const [i, event] of events.entries()) {
        expected = expectedAfter(sourceImportModel, expected, event);
        await perform(event);
        check(expected, `after step ${i + 1} (${event.type})`);
      }
    });
  }
});
