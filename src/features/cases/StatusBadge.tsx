import type { CaseStatus } from '../../../domain/case-status';
import { isClosedCaseStatus } from '../../../domain/case-status';
import { useI18n } from '../../i18n/i18n';
import { CASE_STATUS_KEYS } from './format';

export function StatusBadge({ status }: { status: CaseStatus }) {
  const { t } = useI18n();
  return (
    <span className="case-status" data-status={status} data-closed={isClosedCaseStatus(status)}>
      {t(CASE_STATUS_KEYS[status])}
    </span>
  );
}
