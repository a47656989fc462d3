import { useMemo } from 'react';
import { useLocation } from 'wouter';
import type { Translate } from '../i18n/i18n';
import { type PaletteCommand, useRegisterCommands } from './palette-registry';

/** An audit action in words (`auditActions.*`); a code without a translation shows as itself. */
export function auditActionLabel(t: Translate, code: string): string {
  const key = `auditActions.${code}`;
  const label = t(key);
  return label && label !== key ? label : code;
}

/** The audit log narrowed to one entity's history. */
export const auditHistoryHref = (entityType: string, entityId: string) =>
  `/audit?${new URLSearchParams({ entityType, entityId }).toString()}`;

/**
 * The palette's "History of this …" on an entity's page: opens the audit log filtered to it. `labelKey`
 * names the entity in the command ("History of this user").
 */
export function useHistoryCommand(
  t: Translate,
  entityType: string,
  entityId: string | undefined,
  labelKey: string,
  groupKey: string,
): void {
  const [, navigate] = useLocation();
  const commands = useMemo<PaletteCommand[]>(
    () =>
      entityId
        ? [
            {
              id: `history-${entityType}-${entityId}`,
              group: t(groupKey),
              label: t(labelKey),
              keywords: [t('routes.audit')],
              run: () => navigate(auditHistoryHref(entityType, entityId)),
            },
          ]
        : [],
    [t, entityType, entityId, labelKey, groupKey, navigate],
  );
  useRegisterCommands(`history-${entityType}`, commands);
}
