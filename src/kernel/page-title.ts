import { useEffect } from 'react';
import { useI18n } from '../i18n/i18n';

export function usePageTitle(titleKey: string): void {
  const { t } = useI18n();
  useEffect(() => {
    document.title = t('app.titleTemplate', { product: t(titleKey) });
  }, [t, titleKey]);
}
