import { type ComponentType, Suspense } from 'react';
import { useSearch } from 'wouter';
import { useI18n } from '../../i18n/i18n';
import './finance-messages';
import { CasesToProcess } from './CasesToProcess';
import { SettlementManagement } from './SettlementManagement';
import { SettlementReports } from './SettlementReports';
import { Tabs } from './Tabs';

const TAB_KEYS = {
  process: 'finance.tabs.process',
  manage: 'settlementAdmin.tabs.manage',
  reports: 'settlementAdmin.tabs.reports',
} as const;
const TAB_PANELS: Record<keyof typeof TAB_KEYS, ComponentType> = {
  process: CasesToProcess,
  manage: SettlementManagement,
  reports: SettlementReports,
};
type Tab = keyof typeof TAB_KEYS;
const TABS = Object.keys(TAB_KEYS) as Tab[];

/** `/settlement`: cases to process, settlement management, reports (issue 11 items 1–4). */
export default function SettlementScreen() {
  const { t } = useI18n();
  const tab = (new URLSearchParams(useSearch()).get('tab') ?? 'process') as Tab;
  const current: Tab = tab in TAB_KEYS ? tab : 'process';
  const Panel = TAB_PANELS[current];
  return (
    <div className="finance-screen">
      <Tabs
        label={t('finance.tabs.label')}
        base="/settlement"
        tabs={TABS.map((id) => ({ id, label: t(TAB_KEYS[id]) }))}
        current={current}
      />
      <div role="tabpanel" aria-label={t(TAB_KEYS[current])}>
        <Suspense fallback={<p role="status">{t('table.loading')}</p>}>
          <Panel />
        </Suspense>
      </div>
    </div>
  );
}
