import { useI18n } from '../../i18n/i18n';

/** Frame for screens that later issues fill; the layout already shows the title. */
export default function PlaceholderScreen() {
  const { t } = useI18n();
  return <p className="placeholder">{t('app.notAvailable')}</p>;
}
