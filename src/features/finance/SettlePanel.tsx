import { useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'wouter';
import { fromPromise } from 'xstate';
import { parseAmount } from '../../../domain/money';
import {
  type DoctorMonth,
  includedCases,
  includedTotalCents,
  reviewedPayableCents,
  type SettlementReview,
  type SettleRequest,
  settlementMachine,
} from '../../../machines/settlement';
import { confirmSettlement, fetchProfessionalSettlements, fetchSettlements } from '../../api/finance';
import { useModalFocus } from '../../components/Dialog/modal-focus';
import { useI18n } from '../../i18n/i18n';
import { pluralKey } from '../../i18n/plural';
import { useActiveRowFocus } from '../../kernel/focus';
import { useScreenKeyHandler } from '../../kernel/key-dispatcher';
import { helpLines, type KeyBinding, keyAction } from '../../kernel/key-table';
import { useScreenKeys } from '../../kernel/screen-keys';
import { notify } from '../../kernel/toast';
import { FlowDialog } from './FlowDialog';
import { formatMoney, formatMonth, MISSING_FIELD_KEYS, shortId } from './format';
import { refreshSettlements } from './settlement-actions';

/** A doctor's month as the review reads it: the cases still to settle and what the doctor lacks. */
async function loadReview({ professionalId, referenceMonth }: DoctorMonth): Promise<SettlementReview> {
  const [page, months] = await Promise.all([
    fetchSettlements({
      professionalId,
      referenceMonth,
      status: ['READY_TO_SETTLE', 'AVAILABLE'],
      sort: 'created',
      order: 'asc',
      limit: 200,
    }),
    fetchProfessionalSettlements({ referenceMonth, professionalId }),
  ]);
  const doctor = months.items.find((row) => row.professionalId === professionalId);
  return { cases: page.items, missingFields: doctor?.missingFields ?? [] };
}

type SettleKey = 'down' | 'up' | 'toggle' | 'adjust' | 'confirm' | 'back';

/** The settling screen's keys: its handler reads this table and `?` lists it. */
const SETTLE_KEYS: readonly KeyBinding<SettleKey>[] = [
  { keys: ['j', 'ArrowDown'], shown: 'j / ↓', labelKey: 'shortcuts.table.down', action: 'down' },
  { keys: ['k', 'ArrowUp'], shown: 'k / ↑', labelKey: 'shortcuts.table.up', action: 'up' },
  { keys: ['x'], shown: 'x', labelKey: 'finance.keys.toggle', action: 'toggle' },
  { keys: ['a'], shown: 'a', labelKey: 'finance.keys.adjust', action: 'adjust' },
  { keys: ['c'], shown: 'c', labelKey: 'finance.keys.confirm', action: 'confirm' },
  { keys: ['Escape'], shown: 'Esc', labelKey: 'finance.keys.back', action: 'back' },
];
const SETTLE_HELP = helpLines(SETTLE_KEYS);

export type SettlementActor = ReturnType<typeof useActorRef<typeof settlementMachine>>;

/** The settling flow of the cases-to-process tab: one actor for the list and the doctor's review. */
export function useSettlementActor(doctorName: () => string): SettlementActor {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const nameOf = useRef(doctorName);
  nameOf.current = doctorName;
  const logic = useMemo(
    () =>
      settlementMachine.provide({
        actors: {
          load: fromPromise(({ input }) => loadReview(input)),
          settle: fromPromise(({ input }) => confirmSettlement(input)),
        },
        actions: {
          reportSettled: (_, { request }: { request: SettleRequest }) => {
            refreshSettlements(queryClient);
            notify(
              'success',
              t(
                pluralKey(locale, request.expectedCount, {
                  one: 'finance.process.settled_one',
                  other: 'finance.process.settled_other',
                }),
                {
                  count: request.expectedCount,
                  doctor: nameOf.current(),
                  amount: formatMoney(request.expectedTotalCents, locale),
                },
              ),
            );
          },
        },
      }),
    [queryClient, t, locale],
  );
  return useActorRef(logic);
}

/** The notice line the machine sets ('Select one Doctor ID', nothing included, the total changed). */
export function SettleNotice({ actor }: { actor: SettlementActor }) {
  const { t } = useI18n();
  const notice = useSelector(actor, (s) => s.context.notice);
  if (!notice) return null;
  const key = {
    selectDoctor: 'finance.process.selectDoctor',
    nothingIncluded: 'finance.process.nothingIncluded',
    totalChanged: 'finance.process.totalChanged',
  }[notice];
  return (
    <p role="alert" className="notice" data-testid="settle-notice">
      {t(key)}
    </p>
  );
}

export interface SettlePanelProps extends DoctorMonth {
  actor: SettlementActor;
  doctorName: string;
  onBack(): void;
}

/** Settling one doctor's month, driven by `machines/settlement.ts` (issue 11 item 2). */
export function SettlePanel({ actor, professionalId, referenceMonth, doctorName, onBack }: SettlePanelProps) {
  const { t, locale } = useI18n();
  const snapshot = useSelector(actor, (s) => s);
  const { context } = snapshot;
  const [active, setActive] = useState(0);
  const [adjusting, setAdjusting] = useState<string | null>(null);
  const panel = useRef<HTMLElement>(null);

  // Loaded on opening, and again once a confirmation is done: the month then shows what is left to
  // settle, and `c` works on it, without a reload (issue 29 point 3).
  const settled = snapshot.matches('done');
  useEffect(() => {
    actor.send({ type: 'doctor.select', professionalId, referenceMonth });
  }, [actor, professionalId, referenceMonth]);
  useEffect(() => {
    if (settled) actor.send({ type: 'doctor.select', professionalId, referenceMonth });
  }, [actor, professionalId, referenceMonth, settled]);

  const cases = context.cases;
  const activeIndex = Math.min(active, cases.length - 1);
  const activeCase = cases[activeIndex];
  const reviewing = snapshot.matches('reviewing');

  useScreenKeys('settle', SETTLE_HELP);
  useActiveRowFocus(panel, activeIndex);

  useScreenKeyHandler((event) => {
    switch (keyAction(SETTLE_KEYS, event)) {
      case 'down':
        setActive((i) => Math.min(cases.length - 1, i + 1));
        return true;
      case 'up':
        setActive((i) => Math.max(0, i - 1));
        return true;
      case 'toggle':
        if (reviewing && activeCase) actor.send({ type: 'case.toggle', settlementId: activeCase.id });
        return reviewing;
      case 'adjust':
        if (reviewing && activeCase) setAdjusting(activeCase.id);
        return reviewing;
      case 'confirm':
        actor.send({ type: 'settle.request' });
        return true;
      case 'back':
        onBack();
        return true;
      default:
        return false;
    }
  });

  const total = formatMoney(includedTotalCents(context), locale);
  const count = includedCases(context).length;
  const month = formatMonth(referenceMonth, locale);
  const dialogOpen = snapshot.hasTag('dialog');

  return (
    <section className="settle-panel" aria-labelledby="settle-title" ref={panel}>
      <header className="settle-header">
        <h2 id="settle-title">{t('finance.process.review', { doctor: doctorName, month })}</h2>
        <button type="button" onClick={onBack}>
          {t('finance.process.back')}
        </button>
      </header>
      <SettleNotice actor={actor} />
      {snapshot.matches('loading') ? <p role="status">{t('finance.process.loading')}</p> : null}
      {snapshot.matches('loadFailed') ? (
        <p role="alert">
          {t('finance.process.loadFailed')}{' '}
          <button type="button" onClick={() => actor.send({ type: 'retry' })}>
            {t('finance.process.retry')}
          </button>
        </p>
      ) : null}
      {snapshot.matches('missingInformation') ? (
        <div role="alert" className="missing-information" data-testid="missing-information">
          <p>{t('errorMessages.PROFESSIONAL_MISSING_DATA')}</p>
          <p>{t('finance.process.missingTitle')}:</p>
          <ul>
            {context.missingFields.map((field) => (
              <li key={field}>{t(MISSING_FIELD_KEYS[field])}</li>
            ))}
          </ul>
          <Link href={`/professionals/${professionalId}`}>{t('finance.process.openDoctor')}</Link>
        </div>
      ) : null}
      {reviewing && cases.length === 0 ? (
        <p role="status" data-testid="settle-nothing-left">
          {t('finance.process.nothingLeft', { month })}
        </p>
      ) : null}
      {cases.length > 0 && !snapshot.matches('missingInformation') ? (
        <>
          <table
            className="review-table"
            aria-label={t('finance.process.review', { doctor: doctorName, month })}
          >
            <thead>
              <tr>
                <th scope="col">{t('finance.columns.include')}</th>
                <th scope="col">{t('finance.columns.case')}</th>
                <th scope="col">{t('finance.columns.gross')}</th>
                <th scope="col">{t('finance.columns.fee')}</th>
                <th scope="col">{t('finance.columns.net')}</th>
                <th scope="col">{t('finance.columns.payable')}</th>
              </tr>
            </thead>
            <tbody>
              {cases.map((item, index) => {
                const included = !context.excluded.includes(item.id);
                const payable = reviewedPayableCents(context, item);
                return (
                  <tr
                    key={item.id}
                    data-active={index === activeIndex || undefined}
                    // The active row holds the focus: the adjustment and the confirmation give it back.
                    tabIndex={-1}
                    aria-selected={included}
                    data-testid={`review-row-${item.id}`}
                  >
                    <td>
                      <input
                        type="checkbox"
                        tabIndex={-1}
                        checked={included}
                        aria-label={t('finance.columns.include')}
                        onChange={() => actor.send({ type: 'case.toggle', settlementId: item.id })}
                      />
                    </td>
                    <td>
                      {item.caseId ? (
                        <code>{shortId(item.caseId)}</code>
                      ) : (
                        // A settlement of a subscription payment has no case: say so, not "—" (issue 29 point 7).
                        t('finance.process.subscription')
                      )}
                    </td>
                    <td>{formatMoney(item.grossCents, locale)}</td>
                    <td>{formatMoney(item.feeCents, locale)}</td>
                    <td>{formatMoney(item.netCents, locale)}</td>
                    <td>
                      {formatMoney(payable, locale)}
                      {payable !== item.payableCents ? (
                        <small>
                          {' '}
                          (
                          {t('finance.process.adjustedFrom', {
                            amount: formatMoney(item.payableCents, locale),
                          })}
                          )
                        </small>
                      ) : null}
                      {included ? null : <small> — {t('finance.process.excluded')}</small>}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <p className="settle-summary" data-testid="settle-summary">
            {t(
              pluralKey(locale, cases.length, {
                one: 'finance.process.included_one',
                other: 'finance.process.included_other',
              }),
              { count, total: cases.length, amount: total },
            )}
          </p>
          {adjusting ? (
            <AdjustForm
              caseLabel={shortId(cases.find((c) => c.id === adjusting)?.caseId ?? adjusting)}
              onCancel={() => setAdjusting(null)}
              onApply={(adjustedCents, note) => {
                actor.send({ type: 'case.adjust', settlementId: adjusting, adjustedCents, note });
                setAdjusting(null);
              }}
            />
          ) : null}
          <button type="button" className="primary" onClick={() => actor.send({ type: 'settle.request' })}>
            {t('finance.process.confirm')}
          </button>
        </>
      ) : null}
      {dialogOpen ? (
        <FlowDialog
          title={t('finance.process.confirmTitle', { doctor: doctorName })}
          confirmLabel={t('finance.process.confirmButton')}
          workingLabel={t('finance.process.working')}
          busy={snapshot.hasTag('busy')}
          failed={snapshot.matches('failed')}
          error={context.error}
          onAccept={() => actor.send({ type: 'confirm.accept', idempotencyKey: crypto.randomUUID() })}
          onRetry={() => actor.send({ type: 'retry' })}
          onCancel={() => actor.send({ type: 'confirm.cancel' })}
        >
          <p data-testid="settle-confirm-message">
            {t(
              pluralKey(locale, count, {
                one: 'finance.process.confirmMessage_one',
                other: 'finance.process.confirmMessage_other',
              }),
              { count, month, amount: total },
            )}
          </p>
        </FlowDialog>
      ) : null}
    </section>
  );
}

/** Amount and its required note; `error` is the server's answer to the last apply, shown in place. */
export function AdjustForm(props: {
  caseLabel: string;
  error?: string | null;
  onApply(cents: number, note: string): void;
  onCancel(): void;
}) {
  const { t } = useI18n();
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const first = useRef<HTMLInputElement>(null);
  const form = useRef<HTMLFormElement>(null);
  // Its first field on opening; closed (applied or cancelled), focus goes back to the row it adjusts.
  useModalFocus(form, first);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseAmount(amount);
    if (!parsed.ok) return setProblem(t('table.invalidAmount'));
    if (note.trim() === '') return setProblem(t('finance.process.noteRequired'));
    setProblem(null);
    props.onApply(parsed.cents, note);
  };
  return (
    <form
      ref={form}
      className="adjust-form"
      onSubmit={submit}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          event.stopPropagation();
          props.onCancel();
        }
      }}
      aria-label={t('finance.process.adjustTitle', { case: props.caseLabel })}
    >
      <label>
        {t('finance.process.amount')}
        <input ref={first} inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />
      </label>
      <label>
        {t('finance.process.note')}
        <input value={note} onChange={(e) => setNote(e.target.value)} />
      </label>
      {(problem ?? props.error) ? <p role="alert">{problem ?? props.error}</p> : null}
      <button type="submit">{t('finance.process.saveAdjustment')}</button>
      <button type="button" onClick={props.onCancel}>
        {t('finance.process.cancel')}
      </button>
    </form>
  );
}
