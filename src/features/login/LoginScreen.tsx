import { type FormEvent, useState } from 'react';
import { usePageTitle } from '../../app/page-title';
import { SessionContext } from '../../app/session';
import { errorCodeKey } from '../../i18n/error-codes';
import { useI18n } from '../../i18n/i18n';
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
    if (Object.keys(found).length > 0) return;
    session.send({ type: 'session.login', email: values.email.trim(), password: values.password });
  };

  return (
    <section className="login-card" aria-labelledby="login-title">
      <h1 id="login-title">{t('login.title')}</h1>
      <p className="login-intro">{t('login.intro')}</p>
      {loginError && !pending ? (
        <p className="form-error" role="alert">
          {t(errorCodeKey(loginError) ?? 'errorMessages.fallback')}
        </p>
      ) : null}
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="login-email">{t('login.email')}</label>
          <input
            id="login-email"
            type="email"
            autoComplete="username"
            value={values.email}
            aria-invalid={errors.email ? true : undefined}
            aria-describedby={errors.email ? 'login-email-error' : undefined}
            onChange={(e) => update('email', e.target.value)}
          />
          {errors.email ? (
            <span className="field-error" id="login-email-error">
              {t(errors.email)}
            </span>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor="login-password">{t('login.password')}</label>
          <input
            id="login-password"
            type="password"
            autoComplete="current-password"
            value={values.password}
            aria-invalid={errors.password ? true : undefined}
            aria-describedby={errors.password ? 'login-password-error' : undefined}
            onChange={(e) => update('password', e.target.value)}
          />
          {errors.password ? (
            <span className="field-error" id="login-password-error">
              {t(errors.password)}
            </span>
          ) : null}
        </div>
        <button type="submit" className="button-primary" disabled={pending} aria-busy={pending}>
          {pending ? t('login.submitting') : t('login.submit')}
        </button>
      </form>
    </section>
  );
}
