import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { ApiError } from '../../api/http';
import { useI18n } from '../../i18n/i18n';
import { pluralKey } from '../../i18n/plural';
import { notify } from '../../kernel/toast';
import { useConfirmation } from '../ConfirmDialog/ConfirmDialog';
import { BulkResult, type BulkRowOutcome } from './BulkResult';
import type { EntityAction, EntityActions } from './useEntityActions';

export interface BulkEntityActionsView<E> {
  /** The buttons for a selection (DataTable's `bulkActions`): one per action that applies to some rows. */
  buttons(rows: E[], clear: () => void): ReactNode;
  /** The confirmation and, after a run, its result row by row: render both once on the screen. */
  view: ReactNode;
}

/**
 * The actions of `definition` named in `actionIds`, on a selection (issue 14): each button says to how
 * many selected rows it applies; one confirmation with that count; then the action runs row by row
 * (each row its own request and audit row, as when done one at a time), a refused row does not stop
 * the others, and the result lists every row as done or with its translated reason.
 */
export function useBulkEntityActions<E, C>(
  definition: EntityActions<E, C>,
  context: C,
  actionIds: readonly string[],
  rowLabel: (entity: E) => string,
): BulkEntityActionsView<E> {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const { ask, dialog } = useConfirmation();
  const [outcome, setOutcome] = useState<{ title: string; rows: BulkRowOutcome[] } | null>(null);
  const actions = definition.actions.filter((action) => actionIds.includes(action.id));

  const runAll = async (action: EntityAction<E, C, unknown>, rows: E[]): Promise<BulkRowOutcome[]> => {
    const outcomes: BulkRowOutcome[] = [];
    for (const row of rows) {
      const id = definition.id(row);
      try {
        action.write?.(queryClient, await action.mutate(row), row);
        outcomes.push({ id, label: rowLabel(row), refusedCode: null });
      } catch (error) {
        const code = error instanceof ApiError && error.code ? error.code : 'GENERIC_ERROR';
        outcomes.push({ id, label: rowLabel(row), refusedCode: code });
      }
    }
    return outcomes;
  };

  const buttons = (rows: E[], clear: () => void) =>
    actions.map((action) => {
      const applicable = rows.filter((row) => action.visible?.(row, context) ?? true);
      if (applicable.length === 0) return null;
      const label = t(action.labelKey);
      const counts = { action: label, count: applicable.length, skipped: rows.length - applicable.length };
      return (
        <button
          key={action.id}
          type="button"
          className={action.confirm.danger ? 'danger' : 'primary'}
          onClick={() =>
            ask({
              title: t(
                pluralKey(locale, counts.count, { one: 'bulk.title.one', other: 'bulk.title.other' }),
                counts,
              ),
              message: t(
                counts.skipped > 0
                  ? 'bulk.messageSkipping'
                  : pluralKey(locale, counts.count, { one: 'bulk.message.one', other: 'bulk.message.other' }),
                counts,
              ),
              confirmLabel: t('bulk.confirm', counts),
              danger: action.confirm.danger,
              action: () => runAll(action, applicable),
              onDone: (result) => {
                const rowsDone = result as BulkRowOutcome[];
                const done = rowsDone.filter((row) => row.refusedCode === null).length;
                setOutcome({ title: t('bulk.resultTitle', counts), rows: rowsDone });
                clear();
                notify(
                  done === rowsDone.length ? 'success' : 'warning',
                  t(pluralKey(locale, counts.count, { one: 'bulk.done.one', other: 'bulk.done.other' }), {
                    ...counts,
                    done,
                  }),
                );
              },
            })
          }
        >
          {t('bulk.button', counts)}
        </button>
      );
    });

  const view = (
    <>
      {dialog}
      {outcome ? (
        <BulkResult title={outcome.title} doneLabel={t('bulk.rowDone')} rows={outcome.rows} />
      ) : null}
    </>
  );
  return { buttons, view };
}
