import { useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { type DragEvent, useDeferredValue, useMemo, useReducer, useRef } from 'react';
import { formatCents } from '../../../domain/money';
import { PROVIDER_CSV_FIELDS } from '../../../domain/sources/provider-csv';
import { SOURCE_KINDS, type SourceKind } from '../../../domain/sources/source-ids';
import { sourceKeys } from '../../api/sources';
import { statementKeys } from '../../api/statements';
import { FilePicker } from '../../components/FilePicker/FilePicker';
import { MappingEditor } from '../../components/MappingEditor/MappingEditor';
import { errorCodeKey } from '../../i18n/error-codes';
import { useI18n } from '../../i18n/i18n';
import { pluralKey } from '../../i18n/plural';
import { useStepFocus } from '../../kernel/focus';
import { emptySourcePreview, type SourcePreviewState, sourceImportWithConsole } from './import-actors';
import { PreviewSummary } from './PreviewSummary';
import { previewLayoutOf, SourcePreviewTable } from './PreviewTable';
import { RefusalFacts } from './RefusalFacts';
import { KIND_CHOICES, KIND_SHORT } from './source-words';

/** The states in which the file's rows and facts are on screen. */
const PREVIEWING = ['checking', 'preview'];
const AUTO = 'AUTO';

/** The screen's own refusals, by code (the others are error codes, translated under `errorMessages.`). */
const SCREEN_REFUSALS: Record<string, string> = { PREVIEW_FAILED: 'sources.refused.PREVIEW_FAILED' };
const refusalKey = (code: string) => SCREEN_REFUSALS[code] ?? errorCodeKey(code) ?? 'errorMessages.fallback';

/**
 * Pick the kind (or let the bytes decide) → drop or choose a file → preview in the browser → import →
 * imported (issue 31), driven by the `sourceImport` machine: this component only sends it what the admin
 * does and shows its state, as the statement import panel does.
 */
export function SourceImportPanel() {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const preview = useRef<SourcePreviewState>(emptySourcePreview());
  const logic = useMemo(
    () =>
      sourceImportWithConsole(preview, rerender).provide({
        actions: {
          // The files list, and the reconciliation's provider and invoicing columns the new rows fill.
          reportImported: () => {
            void queryClient.invalidateQueries({ queryKey: sourceKeys.all });
            void queryClient.invalidateQueries({ queryKey: statementKeys.all });
          },
        },
      }),
    [queryClient],
  );
  const actor = useActorRef(logic);
  const snapshot = useSelector(actor, (s) => s);
  const { context } = snapshot;
  const state = snapshot.value as string;
  const money = (cents: number) => formatCents(cents, locale, 'EUR');
  const plural = (count: number, one: string, other: string, params: Record<string, string | number>) =>
    t(pluralKey(locale, count, { one, other }), { count, ...params });
  const panel = useRef<HTMLElement>(null);

  const onPanelFocus = useStepFocus(panel, state, state === 'idle');

  const choose = (file: File | undefined) => {
    if (file) actor.send({ type: 'file.chosen', file });
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    choose(event.dataTransfer.files[0]);
  };
  const outcome = context.preview;
  const details = preview.current.details;
  const showsRows = PREVIEWING.includes(state) && outcome !== null;
  // The rows' table (100,000 rows: a virtualiser's measures and a first page of cells) mounts in a
  // deferred, interruptible render after the summary, not in the same task: no task over 100 ms.
  const tableShown = useDeferredValue(showsRows);
  const collector = outcome?.csv != null;
  const job = context.job;
  const sending = snapshot.hasTag('sending');
  const kindSentence = outcome?.kind ? t(KIND_SHORT[outcome.kind]) : '';

  const knownFiles =
    context.known && context.known.files.length > 0 ? (
      <ul data-testid="source-known-files">
        {context.known.files.map((file) => (
          <li key={file.sourceFileId}>
            {plural(file.rows, 'sources.import.knownFrom.one', 'sources.import.knownFrom.other', {
              file: file.fileName,
            })}
          </li>
        ))}
      </ul>
    ) : null;

  return (
    <section
      ref={panel}
      onFocus={onPanelFocus}
      className="statement-import"
      aria-labelledby="source-import-title"
      data-state={state}
    >
      <h2 id="source-import-title">{t('sources.import.title')}</h2>
      {sending ? null : (
        <fieldset className="statement-drop" onDragOver={(e) => e.preventDefault()} onDrop={onDrop}>
          <label>
            <span>{t('sources.import.kind')}</span>{' '}
            <select
              data-testid="source-kind"
              value={context.kind ?? AUTO}
              onChange={(e) =>
                actor.send({
                  type: 'kind.choose',
                  kind: e.target.value === AUTO ? null : (e.target.value as SourceKind),
                })
              }
            >
              {[AUTO, ...SOURCE_KINDS].map((kind) => (
                <option key={kind} value={kind}>
                  {t(KIND_CHOICES[kind as keyof typeof KIND_CHOICES])}
                </option>
              ))}
            </select>
          </label>{' '}
          <FilePicker
            label={t('sources.import.choose')}
            data-testid="source-file"
            data-focus-home={state === 'idle' ? true : undefined}
            accept=".csv,.txt,.xml,.gz,.zip,text/csv,text/plain,application/xml,text/xml,application/gzip,application/zip"
            onChange={(e) => {
              choose(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
          <p className="hint">{t('sources.import.hint')}</p>
        </fieldset>
      )}

      {context.file ? (
        <p className="statement-file-name">{t('sources.import.file', { name: context.file.name })}</p>
      ) : null}

      {state === 'reading' ? (
        <div className="statement-actions">
          <p role="status">{t('sources.import.reading')}</p>
          <button type="button" data-focus-home onClick={() => actor.send({ type: 'cancel' })}>
            {t('sources.import.cancel')}
          </button>
        </div>
      ) : null}

      {showsRows && outcome ? (
        <div className="statement-summary" role="status" data-testid="source-summary">
          <p>
            {plural(outcome.rows, 'sources.import.detected.one', 'sources.import.detected.other', {
              kind: kindSentence,
              total: money(outcome.totalCents),
            })}
          </p>
          <p data-testid="source-known">
            {context.known
              ? t('sources.import.known', { fresh: context.known.newRows, known: context.known.knownRows })
              : context.knownFailed
                ? t('sources.import.knownFailed')
                : t('sources.import.checking')}
          </p>
          {knownFiles}
        </div>
      ) : null}

      {showsRows && details ? <PreviewSummary details={details} /> : null}

      {state === 'mapping' && outcome?.csv ? (
        <MappingEditor
          key={JSON.stringify(outcome.csv.mapping)}
          fields={PROVIDER_CSV_FIELDS}
          namespace="sources"
          header={outcome.csv.header}
          mapping={outcome.csv.mapping}
          editable
          onAccept={() => actor.send({ type: 'mapping.apply', mapping: outcome.csv?.mapping ?? {} })}
          onApply={(mapping) => actor.send({ type: 'mapping.apply', mapping })}
          onCancel={() => actor.send({ type: 'cancel' })}
        />
      ) : null}

      {showsRows ? (
        <div className="statement-actions">
          <button
            type="button"
            className="primary"
            data-focus-home
            onClick={() => actor.send({ type: 'submit', idempotencyKey: crypto.randomUUID() })}
          >
            {context.known
              ? plural(
                  context.known.newRows,
                  'sources.import.submitNew.one',
                  'sources.import.submitNew.other',
                  {},
                )
              : t('sources.import.submit')}
          </button>
          {collector ? (
            <button type="button" onClick={() => actor.send({ type: 'mapping.edit' })}>
              {t('sources.mapping.edit')}
            </button>
          ) : null}
          <button type="button" onClick={() => actor.send({ type: 'cancel' })}>
            {t('sources.import.cancel')}
          </button>
        </div>
      ) : null}

      {tableShown && showsRows && outcome ? (
        <SourcePreviewTable
          rows={preview.current.rows}
          layout={outcome.kind ? previewLayoutOf(outcome.kind) : 'payouts'}
          known={state === 'preview' ? preview.current.known : null}
        />
      ) : null}

      {sending ? (
        <div
          role="status"
          className="statement-progress"
          data-testid="source-progress"
          tabIndex={-1}
          data-focus-home
        >
          <p>{job ? t(`sources.import.phase.${job.phase}`) : t('sources.import.sending')}</p>
          <progress max={job?.total || 1} value={job?.done ?? 0} />
        </div>
      ) : null}

      {state === 'imported' && job?.result ? (
        <div role="status" className="statement-result" data-testid="source-result">
          <p>{t('sources.result.title', { file: job.fileName || context.file?.name || '' })}</p>
          <ul>
            <li>{t('sources.result.newRows', { count: job.result.newRows })}</li>
            <li>{t('sources.result.duplicatesSkipped', { count: job.result.duplicatesSkipped })}</li>
            {job.result.payouts !== null ? (
              <li>{t('sources.result.payouts', { count: job.result.payouts })}</li>
            ) : null}
            {job.result.documents !== null ? (
              <li>{t('sources.result.documents', { count: job.result.documents })}</li>
            ) : null}
            {job.result.creditNotes !== null ? (
              <li>{t('sources.result.creditNotes', { count: job.result.creditNotes })}</li>
            ) : null}
            {job.result.cancelled !== null ? (
              <li>{t('sources.result.cancelled', { count: job.result.cancelled })}</li>
            ) : null}
            {/* Stated payouts link to no payment: "linked" counts those checked against their rows. */}
            {outcome?.kind === 'STRIPE_BALANCE_PAYOUTS' ? (
              <>
                <li>{t('sources.result.amountChecked', { count: job.result.linked })}</li>
                <li>{t('sources.result.awaitingRows', { count: job.result.unlinked })}</li>
              </>
            ) : (
              <>
                <li>{t('sources.result.linked', { count: job.result.linked })}</li>
                <li>{t('sources.result.unlinked', { count: job.result.unlinked })}</li>
              </>
            )}
          </ul>
          <button type="button" data-focus-home onClick={() => actor.send({ type: 'cancel' })}>
            {t('sources.import.close')}
          </button>
        </div>
      ) : null}

      {state === 'refused' && context.refusal ? (
        <div role="alert" className="statement-refused" data-testid="source-refused">
          <p>{t(refusalKey(context.refusal.code))}</p>
          <RefusalFacts refusal={context.refusal} />
          {knownFiles}
          {collector ? (
            <button type="button" onClick={() => actor.send({ type: 'mapping.edit' })}>
              {t('sources.mapping.edit')}
            </button>
          ) : null}
          <button type="button" data-focus-home onClick={() => actor.send({ type: 'cancel' })}>
            {t('sources.import.close')}
          </button>
        </div>
      ) : null}

      {state === 'failed' ? (
        <div role="alert" className="statement-failed">
          <p>{t(errorCodeKey(context.error ?? '') ?? 'errorMessages.fallback')}</p>
          {/* A big SAF-T the job found against the official XSD: the faults with their lines (decision 0163). */}
          {context.job?.schemaErrors?.length ? (
            <RefusalFacts
              refusal={{ code: context.error ?? '', facts: { schemaErrors: context.job.schemaErrors } }}
            />
          ) : null}
          <button
            type="button"
            className="primary"
            data-focus-home
            onClick={() => actor.send({ type: 'retry' })}
          >
            {t('sources.import.retry')}
          </button>
          <button type="button" onClick={() => actor.send({ type: 'cancel' })}>
            {t('sources.import.cancel')}
          </button>
        </div>
      ) : null}
    </section>
  );
}
