import { type FormEvent, useEffect, useRef, useState } from 'react';
import { errorCodeKey } from '../../i18n/error-codes';
import { useI18n } from '../../i18n/i18n';
import { usePageTitle } from '../../kernel/page-title';
import { SessionContext } from '../../kernel/session';
import { type LoginErrors, type LoginValues, validateLogin } from './validation';

export default function LoginScreen() {
  const { t } = useI18n();
  usePageTitle('routes.login');
  const session = SessionContext.useActorRef();
  const pending = SessionContext.useSelector((s) => s.matches('loggingIn'));
  const loginError = SessionContext.useSelector((s) => s.context.loginError);
  const [values, setValues] = useState<LoginValues>({ email: '', password: '' });
  const [errors, setErrors] = useState<LoginErrors>({});
  const [submitted, setSubmitted] = useState(false);
  // The last server answer is about the last request: a new attempt stopped by a field rule replaces it.
  const [serverErrorCurrent, setServerErrorCurrent] = useState(true);

  const update = (field: keyof LoginValues, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (submitted) setErrors(validateLogin(next));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    setSubmitted(true);
    const found = validateLogin(values);
    setErrors(found);
    const valid = Object.keys(found).length === 0;
    setServerErrorCurrent(valid);
    if (!valid) return;
    session.send({ type: 'session.login', email: values.email.trim(), password: values.password });
  };

  return (
    <section className="login-card" aria-labelledby="login-title">
      <h1 id="login-title">{t('login.title')}</h1>
      <p className="login-intro">{t('login.intro')}</p>
      {loginError && !pending && serverErrorCurrent ? (
        <p className="form-error" role="alert">
          {t(errorCodeKey(loginError) ?? 'errorMessages.fallback')}
        </p>
      ) : null}
      <form onSubmit={submit} noValidate>
        <LoginField
          field="email"
          label={t('login.email')}
          type="email"
          autoComplete="username"
          value={values.email}
          error={errors.email}
          onChange={update}
          focusOnMount
        />
        <LoginField
          field="password"
          label={t('login.password')}
          type="password"
          autoComplete="current-password"
          value={values.password}
          error={errors.password}
          onChange={update}
        />
        <button type="submit" className="button-primary" disabled={pending} aria-busy={pending}>
          {pending ? t('login.submitting') : t('login.submit')}
        </button>
      </form>
    </section>
  );
}

interface LoginFieldProps {
  field: keyof LoginValues;
  label: string;
  type: 'email' | 'password';
  autoComplete: string;
  value: string;
  /** Translation key of the rule the value breaks. */
  error: string | undefined;
  onChange(field: keyof LoginValues, value: string): void;
  /** The first field takes the caret when the screen opens (the e-mail). */
  focusOnMount?: boolean;
}

function LoginField({
  field,
  label,
  type,
  autoComplete,
  value,
  error,
  onChange,
  focusOnMount,
}: LoginFieldProps) {
  const { t } = useI18n();
  const id = `login-${field}`;
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (focusOnMount) input.current?.focus();
  }, [focusOnMount]);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        ref={input}
        id={id}
        type={type}
        autoComplete={autoComplete}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange(field, e.target.value)}
      />
      {error ? (
        <span className="field-error" id={`${id}-error`}>
          {t(error)}
        </span>
      ) : null}
    </div>
  );
}
