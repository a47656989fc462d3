import { useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { type DragEvent, useMemo, useReducer, useRef, useState } from 'react';
import { formatCents } from '../../../domain/money';
import { CSV_FIELDS } from '../../../domain/statements/types';
import { balanceMismatch, type StatementImportJobView } from '../../../machines/statement-import';
import { statementKeys } from '../../api/statements';
import { FilePicker } from '../../components/FilePicker/FilePicker';
import { MappingEditor } from '../../components/MappingEditor/MappingEditor';
import { errorCodeKey } from '../../i18n/error-codes';
import { useI18n } from '../../i18n/i18n';
import { pluralKey } from '../../i18n/plural';
import { useStepFocus } from '../../kernel/focus';
import { PreviewRows } from '../../kernel/preview-rows';
import { AccountPicker } from './AccountPicker';
import { type PreviewState, statementImportWithConsole } from './import-actors';
import { MismatchNoteDialog } from './MismatchNoteDialog';
import { markMoneyScreensStale } from './money-moved';
import { ParseErrors } from './ParseErrors';
import { PreviewStatements } from './PreviewStatements';
import { PreviewTable } from './PreviewTable';
import { SkippedEntries } from './SkippedEntries';

const FORMAT_KEYS = { csv: 'CSV', camt053: 'camt.053', mt940: 'MT940' } as const;

/** Parse errors that are a decision, not a defect: a balance mismatch is shown on its statement. */
const DECIDED_BY_THE_ADMIN = new Set(['BALANCE_MISMATCH']);

/** The states in which the file's rows and facts are on screen. */
const PREVIEWING = ['reading', 'mapping', 'account', 'checking', 'preview'];

/**
 * Upload → preview in the browser → submit → imported (issue 12 items 1–3), driven by the
 * `statementImport` machine: this component only sends it what the admin does and shows its state.
 */
export function ImportPanel({ onImported }: { onImported(statementFileId: string): void }) {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const preview = useRef<PreviewState>({ rows: new PreviewRows(), details: null, known: new Map() });
  const input = useRef<HTMLInputElement>(null);
  const logic = useMemo(
    () =>
      statementImportWithConsole(preview, rerender).provide({
        actions: {
          reportImported: (_, { job }: { job: StatementImportJobView }) => {
            void queryClient.invalidateQueries({ queryKey: statementKeys.all });
            markMoneyScreensStale(queryClient);
            if (job.result) onImported(job.result.statementFileId);
          },
        },
      }),
    [queryClient, onImported],
  );
  const actor = useActorRef(logic);
  const snapshot = useSelector(actor, (s) => s);
  const { context } = snapshot;
  const state = snapshot.value as string;
  const money = (cents: number) => formatCents(cents, locale, 'EUR');
  const plural = (count: number, one: string, other: string, params: Record<string, string | number>) =>
    t(pluralKey(locale, count, { one, other }), { count, ...params });
  const [noting, setNoting] = useState(false);
  const panel = useRef<HTMLElement>(null);

  const onPanelFocus = useStepFocus(panel, `${state}/${noting}`, state === 'idle');

  const choose = (file: File | undefined) => {
    if (file) actor.send({ type: 'file.chosen', file });
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    choose(event.dataTransfer.files[0]);
  };
  const showsRows = PREVIEWING.includes(state);
  const outcome = context.preview;
  const details = preview.current.details;
  const errors = details?.errors.filter((e) => !DECIDED_BY_THE_ADMIN.has(e.code)) ?? [];
  const errorCount = (details?.errorCount ?? 0) - (details?.errors.length ?? 0) + errors.length;
  const mismatch = outcome?.statements.some(balanceMismatch) === true;
  const job = context.job;
  const submit = (mismatchNote?: string) =>
    actor.send({ type: 'submit', idempotencyKey: crypto.randomUUID(), mismatchNote });

  return (
    <section
      ref={panel}
      onFocus={onPanelFocus}
      className="statement-import"
      aria-labelledby="statement-import-title"
      data-state={state}
    >
      <h2 id="statement-import-title">{t('statements.import.title')}</h2>
      {snapshot.hasTag('sending') ? null : (
        <fieldset className="statement-drop" onDragOver={(e) => e.preventDefault()} onDrop={onDrop}>
          <FilePicker
            ref={input}
            label={t('statements.import.choose')}
            data-testid="statement-file"
            data-focus-home={state === 'idle' ? true : undefined}
            accept=".csv,.txt,.xml,.sta,.mt940,.940,text/csv,text/plain,application/xml,text/xml"
            onChange={(e) => {
              choose(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
          <p className="hint">{t('statements.import.hint')}</p>
        </fieldset>
      )}

      {context.file ? (
        <p className="statement-file-name">{t('statements.import.file', { name: context.file.name })}</p>
      ) : null}

      {state === 'reading' ? (
        <div className="statement-actions">
          <p role="status">{t('statements.import.reading')}</p>
          <button type="button" data-focus-home onClick={() => actor.send({ type: 'cancel' })}>
            {t('statements.import.cancel')}
          </button>
        </div>
      ) : null}

      {outcome && showsRows && state !== 'reading' ? (
        <div className="statement-summary" role="status" data-testid="statement-summary">
          <p>
            {plural(outcome.lineCount, 'statements.import.detected.one', 'statements.import.detected.other', {
              format: FORMAT_KEYS[outcome.format],
              total: money(outcome.totalCents),
            })}
          </p>
          <PreviewStatements statements={outcome.statements} givenAccount={context.accountIban} />
          <p data-testid="statement-known">
            {state === 'account'
              ? t('statements.import.accountFirst')
              : context.known
                ? t('statements.import.known', {
                    fresh: context.known.newLines,
                    known: context.known.knownLines,
                  })
                : context.knownFailed
                  ? t('statements.import.knownFailed')
                  : t('statements.import.checking')}
          </p>
          {context.known && context.known.files.length > 0 ? (
            <ul>
              {context.known.files.map((f) => (
                <li key={f.statementFileId}>
                  {plural(f.lines, 'statements.import.knownFrom.one', 'statements.import.knownFrom.other', {
                    file: f.fileName,
                  })}
                </li>
              ))}
            </ul>
          ) : null}
          {details ? <SkippedEntries entries={details.skipped} count={details.skippedCount} /> : null}
        </div>
      ) : null}

      {errorCount > 0 && showsRows && outcome ? (
        <ParseErrors format={outcome.format} errors={errors} count={errorCount} />
      ) : null}

      {state === 'account' ? (
        <>
          <AccountPicker onChoose={(accountIban) => actor.send({ type: 'account.choose', accountIban })} />
          <div className="statement-actions">
            {outcome?.csv ? (
              <button type="button" onClick={() => actor.send({ type: 'mapping.edit' })}>
                {t('statements.mapping.edit')}
              </button>
            ) : null}
            <button type="button" onClick={() => actor.send({ type: 'cancel' })}>
              {t('statements.import.cancel')}
            </button>
          </div>
        </>
      ) : null}

      {state === 'mapping' && outcome?.csv ? (
        <MappingEditor
          key={JSON.stringify(outcome.csv.mapping)}
          fields={CSV_FIELDS}
          namespace="statements"
          header={outcome.csv.header}
          mapping={outcome.csv.mapping}
          editable
          onAccept={() => actor.send({ type: 'mapping.accept' })}
          onApply={(mapping) => actor.send({ type: 'mapping.apply', mapping })}
          onCancel={() => actor.send({ type: 'cancel' })}
        />
      ) : null}

      {state === 'checking' || state === 'preview' ? (
        <div className="statement-actions">
          {mismatch ? (
            <button
              type="button"
              className="primary"
              data-focus-home
              disabled={errorCount > 0}
              aria-haspopup="dialog"
              onClick={() => setNoting(true)}
            >
              {t('statements.import.importAnyway')}
            </button>
          ) : (
            <button
              type="button"
              className="primary"
              data-focus-home
              disabled={errorCount > 0}
              onClick={() => submit()}
            >
              {context.known
                ? plural(
                    context.known.newLines,
                    'statements.import.submitNew.one',
                    'statements.import.submitNew.other',
                    {},
                  )
                : t('statements.import.submit')}
            </button>
          )}
          {context.accountIban ? (
            <button type="button" onClick={() => actor.send({ type: 'account.change' })}>
              {t('statements.account.change')}
            </button>
          ) : null}
          {outcome?.csv ? (
            <button type="button" onClick={() => actor.send({ type: 'mapping.edit' })}>
              {t('statements.mapping.edit')}
            </button>
          ) : null}
          <button type="button" onClick={() => actor.send({ type: 'cancel' })}>
            {t('statements.import.cancel')}
          </button>
        </div>
      ) : null}

      {noting && (state === 'checking' || state === 'preview') ? (
        <MismatchNoteDialog
          onImport={(note) => {
            setNoting(false);
            submit(note);
          }}
          onClose={() => setNoting(false)}
        />
      ) : null}

      {showsRows ? (
        <PreviewTable
          rows={preview.current.rows}
          known={state === 'preview' ? preview.current.known : null}
        />
      ) : null}

      {snapshot.hasTag('sending') ? (
        <div
          role="status"
          className="statement-progress"
          data-testid="statement-progress"
          tabIndex={-1}
          data-focus-home
        >
          <p>
            {t(job ? `statements.import.phase.${job.phase ?? 'importing'}` : 'statements.import.sending')}
          </p>
          <progress max={job?.total || 1} value={job?.done ?? 0} />
        </div>
      ) : null}

      {state === 'imported' && job?.result ? (
        <div role="status" className="statement-result" data-testid="statement-result">
          <p>{t('statements.result.title', { file: job.fileName ?? context.file?.name ?? '' })}</p>
          <ul>
            <li>{t('statements.result.statements', { count: job.result.statements })}</li>
            <li>{t('statements.result.newLines', { count: job.result.newLines })}</li>
            <li>{t('statements.result.duplicatesSkipped', { count: job.result.duplicatesSkipped })}</li>
            <li>{t('statements.result.matched', { count: job.result.matched })}</li>
            <li>{t('statements.result.suggested', { count: job.result.suggested })}</li>
            <li>{t('statements.result.unmatched', { count: job.result.unmatched })}</li>
            <li>{t('statements.result.skipped', { count: job.result.skipped })}</li>
          </ul>
          <button type="button" data-focus-home onClick={() => actor.send({ type: 'cancel' })}>
            {t('statements.import.close')}
          </button>
        </div>
      ) : null}

      {state === 'refused' ? (
        <div role="alert" className="statement-refused" data-testid="statement-refused">
          <p>
            {t(`statements.refused.${context.refusal}`, {
              file: context.refusedBecauseOf ?? context.known?.files[0]?.fileName ?? '',
            })}
          </p>
          <button type="button" data-focus-home onClick={() => actor.send({ type: 'cancel' })}>
            {t('statements.import.close')}
          </button>
        </div>
      ) : null}

      {state === 'failed' ? (
        <div role="alert" className="statement-failed">
          <p>{t(errorCodeKey(context.error ?? '') ?? 'errorMessages.fallback')}</p>
          <button
            type="button"
            className="primary"
            data-focus-home
            onClick={() => actor.send({ type: 'retry' })}
          >
            {t('statements.import.retry')}
          </button>
          <button type="button" onClick={() => actor.send({ type: 'cancel' })}>
            {t('statements.import.cancel')}
          </button>
        </div>
      ) : null}
    </section>
  );
}
