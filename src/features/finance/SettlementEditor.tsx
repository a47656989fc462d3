import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { canAdjustSettlement } from '../../../domain/settlement-status';
import { errorCodeOf } from '../../../machines/session';
import { invoiceDownloadUrl, type SettlementItem } from '../../api/finance';
import {
  patchSettlement,
  type SettlementInvoice,
  uploadSettlementInvoice,
} from '../../api/settlement-manage';
import { useEntityActions } from '../../components/EntityActions/useEntityActions';
import { FilePicker } from '../../components/FilePicker/FilePicker';
import { SubmitButton } from '../../components/SubmitButton/SubmitButton';
import { errorCodeKey } from '../../i18n/error-codes';
import { type Translate, useI18n } from '../../i18n/i18n';
import { notify } from '../../kernel/toast';
import { formatMoney, formatMonth, SETTLEMENT_STATUS_KEYS, shortId } from './format';
import { AdjustForm } from './SettlePanel';
import { refreshSettlements, type ShownSettlement, settlementActions } from './settlement-actions';
import { useFormRequest } from './use-form-request';

const errorText = (t: Translate, error: unknown) =>
  t(errorCodeKey(errorCodeOf(error)) ?? 'errorMessages.fallback');

/**
 * One settlement of the management table: its one-confirmation actions (delete, refund), the amount
 * adjustment (with its required note), the notes, and its invoice. Form errors stay in the form.
 */
export function SettlementEditor(props: {
  settlement: SettlementItem;
  onChange(settlement: SettlementItem): void;
  onClose(): void;
}) {
  const { settlement, onChange, onClose } = props;
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const shown = useMemo<ShownSettlement>(
    () => ({
      ...settlement,
      monthLabel: formatMonth(settlement.referenceMonth, locale),
      amountLabel: formatMoney(settlement.payableCents, locale),
    }),
    [settlement, locale],
  );
  const definition = useMemo(
    () => settlementActions({ changed: onChange, gone: onClose }),
    [onChange, onClose],
  );
  const { actions, dialog } = useEntityActions(definition, shown, undefined);
  const [adjusting, setAdjusting] = useState(false);
  // Opened from a row's button below: the keyboard continues here, with the panel's first control next.
  const panel = useRef<HTMLElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per settlement opened
  useEffect(() => panel.current?.focus(), [settlement.id]);

  const saved = (next: SettlementItem, message: string) => {
    onChange(next);
    refreshSettlements(queryClient);
    notify('success', message);
  };
  const adjust = useFormRequest(
    (change: { cents: number; note: string }) =>
      patchSettlement(settlement.id, { adjustedCents: change.cents, adjustmentNote: change.note }),
    (next: SettlementItem) => {
      setAdjusting(false);
      saved(
        next,
        t('settlementAdmin.adjusted', {
          doctor: next.professionalName,
          amount: formatMoney(next.payableCents, locale),
        }),
      );
    },
  );
  const editable = canAdjustSettlement(settlement.status);

  return (
    <section
      ref={panel}
      tabIndex={-1}
      className="settlement-editor"
      aria-label={t('settlementAdmin.manage')}
      data-testid="settlement-editor"
    >
      <h2>
        {t('settlementAdmin.panelTitle', {
          doctor: settlement.professionalName,
          month: shown.monthLabel,
          amount: shown.amountLabel,
        })}
      </h2>
      <p>
        {t(SETTLEMENT_STATUS_KEYS[settlement.status])}
        {settlement.adjustmentNote ? ` — ${settlement.adjustmentNote}` : ''}
      </p>
      <div className="actions">
        {actions.map((action) => (
          <button
            key={action.id}
            type="button"
            className={action.danger ? 'danger' : undefined}
            onClick={action.run}
          >
            {action.label}
          </button>
        ))}
        {editable && !adjusting ? (
          <button type="button" onClick={() => setAdjusting(true)}>
            {t('settlementAdmin.adjust')}
          </button>
        ) : null}
        {settlement.hasInvoice ? (
          <a href={invoiceDownloadUrl(settlement.id)} download>
            {t('settlementAdmin.download')}
          </a>
        ) : null}
        <button type="button" onClick={onClose}>
          {t('settlementAdmin.close')}
        </button>
      </div>
      {adjusting ? (
        <AdjustForm
          caseLabel={shortId(settlement.caseId ?? settlement.id)}
          error={adjust.error ? errorText(t, adjust.error) : null}
          onApply={(cents, note) => void adjust.run({ cents, note })}
          onCancel={() => {
            adjust.reset();
            setAdjusting(false);
          }}
        />
      ) : null}
      <NotesForm
        key={settlement.id}
        settlement={settlement}
        onSaved={(next) => saved(next, t('settlementAdmin.notesSaved'))}
      />
      <InvoiceUpload settlement={settlement} onSaved={onChange} />
      {dialog}
    </section>
  );
}

function NotesForm(props: { settlement: SettlementItem; onSaved(next: SettlementItem): void }) {
  const { t } = useI18n();
  const [notes, setNotes] = useState(props.settlement.notes ?? '');
  const save = useFormRequest(
    (text: string) => patchSettlement(props.settlement.id, { notes: text.trim() === '' ? null : text }),
    props.onSaved,
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save.run(notes);
  };
  return (
    <form onSubmit={submit} aria-label={t('settlementAdmin.notes')}>
      <label>
        {t('settlementAdmin.notes')}
        <textarea value={notes} maxLength={2000} onChange={(e) => setNotes(e.target.value)} />
      </label>
      {save.error ? <p role="alert">{errorText(t, save.error)}</p> : null}
      <SubmitButton pending={save.pending}>{t('settlementAdmin.saveNotes')}</SubmitButton>
    </form>
  );
}

/** The doctor's invoice: the chosen file's bytes go as they are; the server reads their type. */
function InvoiceUpload(props: { settlement: SettlementItem; onSaved(next: SettlementItem): void }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [missing, setMissing] = useState(false);
  const upload = useFormRequest(
    (file: File) => uploadSettlementInvoice(props.settlement.id, file),
    (invoice: SettlementInvoice) => {
      props.onSaved({ ...props.settlement, hasInvoice: true });
      refreshSettlements(queryClient);
      notify('success', t('settlementAdmin.uploaded', { name: invoice.fileName }));
    },
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const file = input.current?.files?.[0];
    setMissing(!file);
    if (file) void upload.run(file);
  };
  const problem = missing
    ? t('settlementAdmin.chooseFile')
    : upload.error
      ? errorText(t, upload.error)
      : null;
  return (
    <form onSubmit={submit} aria-label={t('settlementAdmin.upload')}>
      <FilePicker
        ref={input}
        label={t('settlementAdmin.invoice')}
        accept="application/pdf,image/jpeg,image/png"
      />
      {problem ? <p role="alert">{problem}</p> : null}
      <SubmitButton pending={upload.pending}>{t('settlementAdmin.upload')}</SubmitButton>
    </form>
  );
}
