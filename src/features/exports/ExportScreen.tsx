import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import type { ExportDateField, ExportFormat, ExportType } from '../../../contract/statuses';
import {
  cancelExport,
  type ExportJob,
  exportJobsKey,
  fetchExportJobs,
  isActiveExport,
  startExport,
} from '../../api/exports';
import { ApiError } from '../../api/http';
import { SubmitButton } from '../../components/SubmitButton/SubmitButton';
import { errorCodeKey, validationCodeKey } from '../../i18n/error-codes';
import { useI18n } from '../../i18n/i18n';
import { notify } from '../../kernel/toast';
import { ExportHistory } from './ExportHistory';
import { ExportProgress } from './ExportProgress';
import { EXPORT_PATHS } from './export-format';

const TYPE_BY_PATH: Record<string, ExportType> = Object.fromEntries(
  Object.entries(EXPORT_PATHS).map(([type, path]) => [path, type as ExportType]),
);

const USER_TYPES: readonly ExportType[] = ['USERS', 'CUSTOMERS', 'PROFESSIONALS'];
/** While an export runs, its progress is asked for this often (any instance can answer it). */
const POLL_MS = 1000;

type FieldErrors = Partial<Record<'startDate' | 'endDate' | 'form', string>>;

/** `/export/{users,customers,professionals,cases,stats}`: start an export, follow it, download it. */
export default function ExportScreen() {
  const { t, locale } = useI18n();
  const [path] = useLocation();
  const type = TYPE_BY_PATH[path] ?? 'USERS';
  const queryClient = useQueryClient();
  const [dateField, setDateField] = useState<ExportDateField>('CREATED');
  const [startDate, setStartDate] = useState('');
  const [endDate, setEndDate] = useState('');
  const [format, setFormat] = useState<ExportFormat>('CSV');
  const [errors, setErrors] = useState<FieldErrors>({});
  const progressRef = useRef<HTMLElement>(null);

  const jobs = useQuery({
    queryKey: exportJobsKey(type),
    queryFn: () => fetchExportJobs(type),
    refetchInterval: (query) => (query.state.data?.items.some(isActiveExport) ? POLL_MS : false),
  });
  const items = jobs.data?.items ?? [];
  const active = items.find(isActiveExport) ?? null;
  useAnnounceFinished(items);

  const refresh = () => queryClient.invalidateQueries({ queryKey: exportJobsKey(type) });
  const start = useMutation({
    mutationFn: startExport,
    onSuccess: async () => {
      await refresh();
      progressRef.current?.focus();
    },
    onError: (error) => setErrors(serverErrors(error, t)),
  });
  const cancel = useMutation({
    mutationFn: cancelExport,
    onSuccess: () => {
      notify('info', t('exports.cancelled'));
      void refresh();
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: FieldErrors = {};
    if (startDate === '') found.startDate = t('validation.required');
    else if (endDate !== '' && endDate < startDate)
      found.endDate = t('errorMessages.EXPORT_END_BEFORE_START');
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    start.mutate({ type, dateField, startDate, endDate, format, locale });
  };

  const fieldError = (name: keyof FieldErrors) =>
    errors[name] ? (
      <p id={`export-${name}-error`} role="alert" className="field-error">
        {errors[name]}
      </p>
    ) : null;

  return (
    <div className="exports">
      <form className="exports-form" onSubmit={submit} noValidate aria-label={t('exports.form')}>
        {USER_TYPES.includes(type) ? (
          <fieldset>
            <legend>{t('exports.dateField')}</legend>
            {(['CREATED', 'LAST_ACTIVE'] as const).map((field) => (
              <label key={field}>
                <input
                  type="radio"
                  name="dateField"
                  value={field}
                  checked={dateField === field}
                  onChange={() => setDateField(field)}
                />
                {t(field === 'CREATED' ? 'exports.created' : 'exports.lastActive')}
              </label>
            ))}
          </fieldset>
        ) : null}
        <div className="exports-dates">
          <label htmlFor="export-startDate">
            {t('exports.startDate')} <span aria-hidden="true">*</span>
          </label>
          <input
            id="export-startDate"
            type="date"
            required
            value={startDate}
            aria-invalid={errors.startDate !== undefined}
            aria-describedby={errors.startDate ? 'export-startDate-error' : undefined}
            onChange={(e) => setStartDate(e.target.value)}
          />
          {fieldError('startDate')}
          <label htmlFor="export-endDate">{t('exports.endDate')}</label>
          <input
            id="export-endDate"
            type="date"
            value={endDate}
            aria-invalid={errors.endDate !== undefined}
            aria-describedby={errors.endDate ? 'export-endDate-error' : undefined}
            onChange={(e) => setEndDate(e.target.value)}
          />
          {fieldError('endDate')}
        </div>
        <fieldset>
          <legend>{t('exports.format')}</legend>
          {(['CSV', 'XLSX'] as const).map((f) => (
            <label key={f}>
              <input
                type="radio"
                name="format"
                value={f}
                checked={format === f}
                onChange={() => setFormat(f)}
              />
              {f}
            </label>
          ))}
        </fieldset>
        <p className="exports-hint">{t('exports.hint')}</p>
        <SubmitButton pending={start.isPending} disabled={active !== null}>
          {t('exports.submit')}
        </SubmitButton>
        {fieldError('form')}
      </form>
      <ExportProgress
        ref={progressRef}
        job={active}
        cancelling={cancel.isPending}
        onCancel={(job) => cancel.mutate(job.id)}
      />
      <ExportHistory jobs={items} loading={jobs.isPending} />
    </div>
  );
}

/** A server refusal next to the field it names, else under the form; translated either way. */
function serverErrors(error: unknown, t: (key: string) => string): FieldErrors {
  if (!(error instanceof ApiError)) return { form: t('errorMessages.fallback') };
  const field = error.errors[0]?.field;
  const message =
    error.code === 'VALIDATION_ERROR' && error.errors[0]
      ? t(validationCodeKey(error.errors[0].code) ?? 'validation.invalid')
      : t((error.code && errorCodeKey(error.code)) ?? 'errorMessages.fallback');
  if (field === 'startDate' || field === 'endDate') return { [field]: message };
  return { form: message };
}

/** A toast when an export this screen saw running finishes, so nobody has to watch the bar. */
function useAnnounceFinished(jobs: readonly ExportJob[]): void {
  const { t } = useI18n();
  const seenActive = useRef(new Set<string>());
  useEffect(() => {
    for (const job of jobs) {
      if (isActiveExport(job)) seenActive.current.add(job.id);
      else if (seenActive.current.delete(job.id)) {
        if (job.status === 'done') notify('success', t('exports.ready', { name: job.fileName ?? '' }));
        if (job.status === 'failed') notify('danger', t('exports.failedToast'));
      }
    }
  }, [jobs, t]);
}
