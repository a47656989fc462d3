import type { CaseStatus } from '../../../domain/case-status';
import { Pill } from '../../components/Pill/Pill';
import { useI18n } from '../../i18n/i18n';
import { CASE_STATUS_KEYS, CASE_STATUS_TONES } from './format';

export function StatusBadge({ status }: { status: CaseStatus }) {
  const { t } = useI18n();
  return <Pill tone={CASE_STATUS_TONES[status]}>{t(CASE_STATUS_KEYS[status])}</Pill>;
}
