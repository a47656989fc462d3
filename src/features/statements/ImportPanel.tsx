import { useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { type DragEvent, useMemo, useReducer, useRef } from 'react';
import { formatCents } from '../../../domain/money';
import type { StatementImportJobView } from '../../../machines/statement-import';
import { statementKeys } from '../../api/statements';
import { FilePicker } from '../../components/FilePicker/FilePicker';
import { errorCodeKey } from '../../i18n/error-codes';
import { useI18n } from '../../i18n/i18n';
import { type PreviewState, statementImportWithConsole } from './import-actors';
import { MappingEditor } from './MappingEditor';
import { PreviewTable } from './PreviewTable';
import { PreviewRows } from './preview-client';

const FORMAT_KEYS = { csv: 'CSV', camt053: 'camt.053', mt940: 'MT940' } as const;

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

  const choose = (file: File | undefined) => {
    if (file) actor.send({ type: 'file.chosen', file });
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    choose(event.dataTransfer.files[0]);
  };
  const showsRows = ['reading', 'mapping', 'checking', 'preview'].includes(state);
  const outcome = context.preview;
  const details = preview.current.details;
  const errorCount = details?.errorCount ?? 0;
  const job = context.job;

  return (
    <section className="statement-import" aria-labelledby="statement-import-title" data-state={state}>
      <h2 id="statement-import-title">{t('statements.import.title')}</h2>
      {snapshot.hasTag('sending') ? null : (
        <fieldset className="statement-drop" onDragOver={(e) => e.preventDefault()} onDrop={onDrop}>
          <FilePicker
            ref={input}
            label={t('statements.import.choose')}
            data-testid="statement-file"
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
          <button type="button" onClick={() => actor.send({ type: 'cancel' })}>
            {t('statements.import.cancel')}
          </button>
        </div>
      ) : null}

      {outcome && showsRows && state !== 'reading' ? (
        <div className="statement-summary" role="status" data-testid="statement-summary">
          <p>
            {t('statements.import.detected', {
              format: FORMAT_KEYS[outcome.format],
              lines: outcome.lineCount,
              total: money(outcome.totalCents),
            })}
            {details?.accountIban
              ? ` · ${t('statements.import.account', { iban: details.accountIban })}`
              : ''}
          </p>
          <p data-testid="statement-balance">
            {details?.balance
              ? details.balance.consistent
                ? t('statements.balance.consistent', {
                    opening: money(details.balance.opening),
                    closing: money(details.balance.closing),
                  })
                : t('statements.balance.inconsistent', {
                    opening: money(details.balance.opening),
                    closing: money(details.balance.closing),
                    difference: money(details.balance.closing - details.balance.opening - outcome.totalCents),
                  })
              : t('statements.balance.none')}
          </p>
          <p data-testid="statement-known">
            {context.known
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
                  {t('statements.import.knownFrom', { file: f.fileName, lines: f.lines })}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}

      {errorCount > 0 && showsRows ? (
        <div className="statement-errors" role="alert" data-testid="statement-errors">
          <p>{t('statements.import.errors', { count: errorCount })}</p>
          <ul>
            {details?.errors.map((e) => (
              <li key={`${e.line}-${e.code}`}>
                {t('statements.import.errorLine', { line: e.line, code: e.code })}
              </li>
            ))}
          </ul>
        </div>
      ) : null}

      {state === 'mapping' && outcome?.csv ? (
        <MappingEditor
          key={JSON.stringify(outcome.csv.mapping)}
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
          <button
            type="button"
            className="primary"
            disabled={errorCount > 0}
            onClick={() => actor.send({ type: 'submit', idempotencyKey: crypto.randomUUID() })}
          >
            {context.known
              ? t('statements.import.submitNew', { count: context.known.newLines })
              : t('statements.import.submit')}
          </button>
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

      {showsRows ? (
        <PreviewTable
          rows={preview.current.rows}
          known={state === 'checking' || state === 'reading' ? null : preview.current.known}
        />
      ) : null}

      {snapshot.hasTag('sending') ? (
        <div role="status" className="statement-progress" data-testid="statement-progress">
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
            <li>{t('statements.result.newLines', { count: job.result.newLines })}</li>
            <li>{t('statements.result.duplicatesSkipped', { count: job.result.duplicatesSkipped })}</li>
            <li>{t('statements.result.matched', { count: job.result.matched })}</li>
            <li>{t('statements.result.suggested', { count: job.result.suggested })}</li>
            <li>{t('statements.result.unmatched', { count: job.result.unmatched })}</li>
          </ul>
          <button type="button" onClick={() => actor.send({ type: 'cancel' })}>
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
          <button type="button" onClick={() => actor.send({ type: 'cancel' })}>
            {t('statements.import.close')}
          </button>
        </div>
      ) : null}

      {state === 'failed' ? (
        <div role="alert" className="statement-failed">
          <p>{t(errorCodeKey(context.error ?? '') ?? 'errorMessages.fallback')}</p>
          <button type="button" className="primary" onClick={() => actor.send({ type: 'retry' })}>
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
