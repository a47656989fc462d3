import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { checkIban, type IbanError, normalizeIban } from '../../../domain/iban';
import { formatCents } from '../../../domain/money';
import { fetchStatementAccounts, type StatementAccountRow, statementKeys } from '../../api/statements';
import { useI18n } from '../../i18n/i18n';
import { formatDate } from '../../kernel/dates';
import { printedIban } from './iban-format';

const IBAN_ERRORS: Record<IbanError, string> = {
  REQUIRED: 'statements.account.errors.REQUIRED',
  INVALID_COUNTRY: 'statements.account.errors.INVALID_COUNTRY',
  INVALID_LENGTH: 'statements.account.errors.INVALID_LENGTH',
  INVALID_FORMAT: 'statements.account.errors.INVALID_FORMAT',
  INVALID_CHECKSUM: 'statements.account.errors.INVALID_CHECKSUM',
  INVALID_NATIONAL_CHECKSUM: 'statements.account.errors.INVALID_NATIONAL_CHECKSUM',
};

/** The known accounts whose IBAN holds what was typed (spaces and case ignored). */
export function matchingAccounts(
  accounts: readonly StatementAccountRow[],
  typed: string,
): StatementAccountRow[] {
  const wanted = typed.replace(/\s+/g, '').toUpperCase();
  return accounts.filter((account) => account.accountIban.includes(wanted));
}

/**
 * The account of a statement that names none (a bank CSV without its account line): one of the accounts
 * statements were imported for (↓/↑ move, Enter takes it), or an IBAN typed and checked here (mod-97 and
 * the national check digits) before anything is sent. A combobox: focus stays in its field throughout.
 */
export function AccountPicker(props: { onChoose(accountIban: string): void }) {
  const { t, locale } = useI18n();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [typed, setTyped] = useState('');
  const [active, setActive] = useState(-1);
  const [error, setError] = useState<IbanError | null>(null);
  const accounts = useQuery({ queryKey: statementKeys.accounts, queryFn: fetchStatementAccounts });
  const options = matchingAccounts(accounts.data ?? [], typed);
  const optionId = (index: number) => `${id}-option-${index}`;

  // The admin is asked for the account: the field is where the keyboard goes.
  useEffect(() => input.current?.focus(), []);

  const choose = (accountIban: string) => {
    const check = checkIban(accountIban);
    if (!check.valid) return setError(check.code);
    props.onChoose(check.iban);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (options.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => (current + step + options.length) % options.length);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const picked = options[active];
    choose(picked ? picked.accountIban : typed);
  };

  return (
    <form className="statement-account" onSubmit={submit} data-testid="statement-account">
      <label htmlFor={`${id}-input`}>{t('statements.account.label')}</label>
      <p id={`${id}-hint`} className="hint">
        {t('statements.account.hint')}
      </p>
      <input
        ref={input}
        id={`${id}-input`}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={options.length > 0}
        aria-controls={`${id}-list`}
        aria-activedescendant={active >= 0 && options[active] ? optionId(active) : undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
        aria-invalid={error ? true : undefined}
        autoComplete="off"
        spellCheck={false}
        value={typed}
        onKeyDown={onKeyDown}
        onChange={(event) => {
          setTyped(event.target.value);
          setActive(-1);
          setError(null);
        }}
      />
      <div
        id={`${id}-list`}
        role="listbox"
        aria-label={t('statements.account.known')}
        // An empty listbox is not offered (and has no options for assistive technology to expect).
        hidden={options.length === 0}
      >
        {options.map((account, index) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard chooses through the combobox (arrows, Enter)
          <div
            key={account.accountIban}
            tabIndex={-1}
            id={optionId(index)}
            role="option"
            aria-selected={index === active}
            onClick={() => choose(account.accountIban)}
          >
            <span className="iban">{printedIban(account.accountIban)}</span>{' '}
            <span className="hint">
              {t('statements.account.last', {
                end: formatDate(account.lastPeriodEnd, locale),
                closing:
                  account.lastClosingBalanceCents === null
                    ? '—'
                    : formatCents(account.lastClosingBalanceCents, locale, account.currency ?? 'EUR'),
              })}
            </span>
          </div>
        ))}
      </div>
      {error ? (
        <p id={`${id}-error`} role="alert" className="field-error">
          {t(IBAN_ERRORS[error], { iban: printedIban(normalizeIban(typed)) })}
        </p>
      ) : null}
      <button type="submit" className="primary">
        {t('statements.account.use')}
      </button>
    </form>
  );
}
