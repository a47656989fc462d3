import { Link } from 'wouter';
import { useI18n } from '../../i18n/i18n';
import { usePageTitle } from '../../kernel/page-title';

/** Spec §2: the status message defaults to 'Error' and the status to 500. */
export function ErrorPage({
  status = 500,
  messageKey = 'errors.defaultMessage',
}: {
  status?: number;
  messageKey?: string;
}) {
  const { t } = useI18n();
  usePageTitle(messageKey);
  return (
    <section className="error-page" aria-labelledby="error-message">
      <p className="error-status">{status}</p>
      <h1 id="error-message">{t(messageKey)}</h1>
      <Link href="/">{t('errors.backHome')}</Link>
    </section>
  );
}

export function NotFoundPage() {
  return <ErrorPage status={404} messageKey="errors.notFound" />;
}
