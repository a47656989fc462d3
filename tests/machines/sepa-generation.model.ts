import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { sepaGenerationMachine } from '../../machines/sepa-generation';
import type { Expected, MachineModel, ModelEvent, Observed } from './model';

/**
 * Generating a SEPA file as issue 11 (item 5) describes it, written without reading the machine:
 * select doctors (or all) → dry run (count, total, execution date, excluded) → confirm → generating →
 * generated with downloads | failed → retry with the same idempotency key; 'No sepa was created' when
 * nothing is payable; a second Enter while generating never sends a second request.
 */

const MONTH = '2026-10';
const DOCTOR = '00000000-0000-4000-8000-0000000000d1';
const DRY_RUN = { transferCount: 2, totalCents: 4610, executionDate: '2026-11-27', excluded: [] };
const EMPTY_DRY_RUN = { transferCount: 0, totalCents: 0, executionDate: '2026-11-27', excluded: [] };
const FILE = { file: { id: 'f1', msgId: 'MSG-1' }, excluded: [] };

type Body = { referenceMonth: string; professionalIds?: string[]; executionDate?: string };

export interface SepaGenerationExpected extends Expected {
  body: Body | null;
  /** The dry run on screen (inside the confirmation, and kept with 'No sepa was created'). */
  dryRun: unknown;
  /** The dialog: closed, asking (dry run shown), working, failed with retry. */
  dialog: 'closed' | 'asking' | 'working' | 'failed';
  /** The key every generate request of this confirmation carries. */
  key: string | null;
  /** Downloads of the new file offered. */
  downloads: boolean;
  /** 'No sepa was created' shown. */
  nothingCreated: boolean;
  notice: 'selectDoctors' | null;
  error: string | null;
  generated: unknown;
  reports: unknown[];
}

const fresh = {
  body: null,
  dryRun: null,
  dialog: 'closed',
  key: null,
  downloads: false,
  nothingCreated: false,
  notice: null,
  error: null,
  generated: null,
} as const;

const requestDryRun = (e: SepaGenerationExpected, ev: ModelEvent): SepaGenerationExpected => {
  const ids = ev.professionalIds as string[] | undefined;
  if (ids && ids.length === 0) return { ...e, notice: 'selectDoctors' };
  const body: Body = { referenceMonth: ev.referenceMonth as string };
  if (ids) body.professionalIds = ids;
  if (ev.executionDate) body.executionDate = ev.executionDate as string;
  return {
    ...e,
    ...fresh,
    state: 'dryRunning',
    body,
    requests: [...e.requests, { actor: 'dryRun', input: body }],
  };
};
const generate = (e: SepaGenerationExpected, key: string): SepaGenerationExpected => ({
  ...e,
  state: 'generating',
  dialog: 'working',
  key,
  error: null,
  requests: [...e.requests, { actor: 'generate', input: { body: e.body, idempotencyKey: key } }],
});
const nothing = (e: SepaGenerationExpected): SepaGenerationExpected => ({
  ...e,
  state: 'nothingToPay',
  dialog: 'closed',
  nothingCreated: true,
});
const startOver = (e: SepaGenerationExpected): SepaGenerationExpected => ({
  ...e,
  ...fresh,
  state: 'selecting',
});

/** What the SEPA screen reads from the snapshot (mirrors the screen). */
function screen(snapshot: AnyMachineSnapshot) {
  return {
    dialogOpen: snapshot.hasTag('dialog'),
    busy: snapshot.hasTag('busy'),
    downloads: snapshot.hasTag('downloads'),
    nothingCreated: snapshot.matches('nothingToPay'),
    dryRun: snapshot.context.dryRun,
    generated: snapshot.context.generated,
    notice: snapshot.context.notice,
    error: snapshot.context.error,
  };
}

const looks =
  (dialogOpen: boolean, busy: boolean) =>
  ({ world, snapshot }: Observed<{ reports: unknown[] }>, e: SepaGenerationExpected) => {
    expect(screen(snapshot)).toEqual({
      dialogOpen,
      busy,
      downloads: e.downloads,
      nothingCreated: e.nothingCreated,
      dryRun: e.dryRun,
      generated: e.generated,
      notice: e.notice,
      error: e.error,
    });
    expect(world.reports).toEqual(e.reports);
    if (e.dialog !== 'closed') expect(snapshot.context.idempotencyKey).toBe(e.key);
  };

export const sepaGenerationModel: MachineModel<undefined, { reports: unknown[] }, SepaGenerationExpected> = {
  name: 'sepaGeneration',
  machine: sepaGenerationMachine,
  starts: [{ name: 'the settlements-to-process screen', input: undefined }],
  events: {
    'dry run: one doctor': { type: 'dryRun.request', referenceMonth: MONTH, professionalIds: [DOCTOR] },
    'dry run: all, on a date': { type: 'dryRun.request', referenceMonth: MONTH, executionDate: '2026-12-01' },
    'dry run: nobody selected': { type: 'dryRun.request', referenceMonth: MONTH, professionalIds: [] },
    'dry run: answer': { type: 'xstate.done.actor.dryRun', output: DRY_RUN },
    'dry run: nothing payable': { type: 'xstate.done.actor.dryRun', output: EMPTY_DRY_RUN },
    'dry run: NO_SEPA_CREATED': { type: 'xstate.error.actor.dryRun', error: { code: 'NO_SEPA_CREATED' } },
    'dry run: fails': { type: 'xstate.error.actor.dryRun', error: { code: 'GENERIC_ERROR' } },
    Enter: { type: 'confirm.accept', idempotencyKey: 'key-1' },
    'Enter again': { type: 'confirm.accept', idempotencyKey: 'key-2' },
    Esc: { type: 'confirm.cancel' },
    retry: { type: 'retry' },
    'new file': { type: 'restart' },
    'generate: file': { type: 'xstate.done.actor.generate', output: FILE },
    'generate: network': { type: 'xstate.error.actor.generate', error: { code: 'NETWORK_ERROR' } },
    'generate: NO_SEPA_CREATED': { type: 'xstate.error.actor.generate', error: { code: 'NO_SEPA_CREATED' } },
  },
  serializeState: (s) => JSON.stringify({ value: s.value, body: s.context.body }),
  actors: ['dryRun', 'generate'],
  world: () => {
    const world = { reports: [] as unknown[] };
    return {
      world,
      actions: { reportGenerated: (_: unknown, p: { output: unknown }) => world.reports.push(p.output) },
    };
  },
  initial: () => ({ state: 'selecting', requests: [], ...fresh, reports: [] }),
  transitions: {
    selecting: { 'dryRun.request': requestDryRun },
    dryRunning: {
      'xstate.done.actor.dryRun': (e, ev) => {
        const outcome = ev.output as typeof DRY_RUN;
        if (outcome.transferCount === 0) return nothing({ ...e, dryRun: outcome });
        return { ...e, state: 'confirming', dialog: 'asking', dryRun: outcome };
      },
      'xstate.error.actor.dryRun': (e, ev) => {
        const code = (ev.error as { code: string }).code;
        if (code === 'NO_SEPA_CREATED') return nothing(e);
        return { ...e, state: 'selecting', error: code };
      },
    },
    confirming: {
      'confirm.accept': (e, ev) => generate(e, ev.idempotencyKey as string),
      'confirm.cancel': (e) => ({ ...e, state: 'selecting', dialog: 'closed', dryRun: null }),
    },
    // In flight: neither a second Enter nor Esc sends or changes anything.
    generating: {
      'xstate.done.actor.generate': (e, ev) => ({
        ...e,
        state: 'generated',
        dialog: 'closed',
        downloads: true,
        generated: ev.output,
        reports: [...e.reports, ev.output],
      }),
      'xstate.error.actor.generate': (e, ev) => {
        const code = (ev.error as { code: string }).code;
        if (code === 'NO_SEPA_CREATED') return nothing(e);
        return { ...e, state: 'failed', dialog: 'failed', error: code };
      },
    },
    // Retry: the same key, so the server answers the file it may already have made.
    failed: {
      retry: (e) => generate(e, e.key as string),
      'confirm.cancel': startOver,
    },
    generated: { restart: startOver },
    nothingToPay: { restart: startOver },
  },
  states: {
    selecting: looks(false, false),
    dryRunning: looks(false, true),
    confirming: looks(true, false),
    generating: looks(true, true),
    failed: looks(true, false),
    generated: looks(false, false),
    nothingToPay: looks(false, false),
  },
};
