import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { AREA_NAME_MAX } from '../../../contract/limits';
import { ApiError } from '../../api/http';
import {
  createInterestArea,
  deleteInterestArea,
  type InterestArea,
  interestAreasQuery,
} from '../../api/interest-areas';
import { useConfirmation } from '../../components/ConfirmDialog/ConfirmDialog';
import { SubmitButton } from '../../components/SubmitButton/SubmitButton';
import { errorCodeKey } from '../../i18n/error-codes';
import { useI18n } from '../../i18n/i18n';
import { pluralKey } from '../../i18n/plural';
import { notify } from '../../kernel/toast';

/** `/professionals/area-interest`: the areas with their number of professionals; create and delete. */
/** Characters before the limit at which the count appears. */
const AREA_NAME_WARN = 10;

export default function AreasScreen() {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const { data, isPending } = useQuery(interestAreasQuery);
  const confirmation = useConfirmation();
  const [name, setName] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: interestAreasQuery.queryKey });
  const create = useMutation({
    mutationFn: createInterestArea,
    meta: { inlineError: true },
    onSuccess: (area) => {
      setName('');
      notify('success', t('areas.created', { name: area.name }));
      void refresh();
    },
    onError: (error) => {
      const code = error instanceof ApiError ? error.code : null;
      setFieldError(t((code && errorCodeKey(code)) ?? 'errorMessages.fallback'));
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '') {
      setFieldError(t('validation.required'));
      return;
    }
    setFieldError(null);
    create.mutate(name.trim());
  };

  const askDelete = (area: InterestArea) =>
    confirmation.ask({
      title: t('areas.deleteTitle', { name: area.name }),
      message: t(
        pluralKey(locale, area.professionals, {
          one: 'areas.deleteMessage.one',
          other: 'areas.deleteMessage.other',
        }),
        { count: area.professionals },
      ),
      confirmLabel: t('areas.delete'),
      danger: true,
      action: () => deleteInterestArea(area.id),
      onDone: () => {
        notify('success', t('areas.deleted', { name: area.name }));
        void refresh();
      },
    });

  const items = useMemo(() => data?.items ?? [], [data]);

  return (
    <div className="areas">
      <form className="areas-form" onSubmit={submit} noValidate>
        <label htmlFor="area-name">{t('areas.name')}</label>
        <input
          id="area-name"
          value={name}
          maxLength={AREA_NAME_MAX}
          aria-invalid={fieldError !== null}
          aria-describedby={fieldError ? 'area-name-error area-name-count' : 'area-name-count'}
          onChange={(e) => setName(e.target.value)}
        />
        {/* The limit is said, not met by a silent cut: the count shows as it nears. */}
        <span id="area-name-count" className="field-hint" aria-live="polite">
          {name.length >= AREA_NAME_MAX - AREA_NAME_WARN
            ? t('areas.nameCount', { count: name.length, max: AREA_NAME_MAX })
            : ''}
        </span>
        <SubmitButton pending={create.isPending}>{t('areas.create')}</SubmitButton>
        {fieldError ? (
          <p id="area-name-error" role="alert" className="field-error">
            {fieldError}
          </p>
        ) : null}
      </form>
      {isPending ? (
        <p role="status">{t('table.loading')}</p>
      ) : items.length === 0 ? (
        <p>{t('errorMessages.NO_RECORDS_FOUND')}</p>
      ) : (
        <table className="areas-table" aria-label={t('routes.areaInterest')}>
          <thead>
            <tr>
              <th scope="col">{t('areas.name')}</th>
              <th scope="col">{t('areas.professionals')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('areas.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((area) => (
              <tr key={area.id}>
                <td>{area.name}</td>
                <td>{area.professionals}</td>
                <td>
                  <button
                    type="button"
                    aria-label={t('areas.deleteNamed', { name: area.name })}
                    onClick={() => askDelete(area)}
                  >
                    {t('areas.delete')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {confirmation.dialog}
    </div>
  );
}
