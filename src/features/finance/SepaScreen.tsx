import './finance-messages';
import { Suspense } from 'react';
import { useSearch } from 'wouter';
import { useI18n } from '../../i18n/i18n';
import { BlockedPayouts } from './BlockedPayouts';
import { SepaHistory } from './SepaHistory';
import { SepaToProcess } from './SepaToProcess';
import { Tabs } from './Tabs';

const TAB_KEYS = {
  process: 'sepa.tabs.process',
  history: 'sepa.tabs.history',
  blocked: 'sepa.tabs.blocked',
} as const;
type Tab = keyof typeof TAB_KEYS;
const TABS = Object.keys(TAB_KEYS) as Tab[];

/**
 * `/sepa`: settlements to process (generate a file), the SEPA history (issue 11 items 5–7) and the
 * doctors whose payouts are blocked (decision 0143).
 */
export default function SepaScreen() {
  const { t } = useI18n();
  const tab = (new URLSearchParams(useSearch()).get('tab') ?? 'process') as Tab;
  const current: Tab = tab in TAB_KEYS ? tab : 'process';
  return (
    <div className="finance-screen">
      <Tabs
        label={t('sepa.tabs.label')}
        base="/sepa"
        tabs={TABS.map((id) => ({ id, label: t(TAB_KEYS[id]) }))}
        current={current}
      />
      <div role="tabpanel" aria-label={t(TAB_KEYS[current])}>
        <Suspense fallback={<p role="status">{t('table.loading')}</p>}>
          {current === 'process' ? (
            <SepaToProcess />
          ) : current === 'history' ? (
            <SepaHistory />
          ) : (
            <BlockedPayouts />
          )}
        </Suspense>
      </div>
    </div>
  );
}
