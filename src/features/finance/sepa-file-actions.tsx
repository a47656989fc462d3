import type { QueryClient } from '@tanstack/react-query';
import type { SepaFileAction } from '../../../contract/sepa-statuses';
import { canDeleteSepa, canTransitionSepa, type SepaEvent } from '../../../domain/sepa-status';
import { settlementKeys } from '../../api/finance';
import { deleteSepaFile, markSepaFile, type SepaFileDetail, sepaKeys } from '../../api/sepa';
import { type EntityActions, entityAction } from '../../components/EntityActions/useEntityActions';

type FileEntity = Pick<SepaFileDetail, 'id' | 'msgId' | 'status' | 'amountCents' | 'transferCount'>;

/** A change of a file moves its settlements too: both are read again. */
const refresh = (queryClient: QueryClient, result: unknown, file: FileEntity) => {
  if (result && typeof result === 'object' && 'transfers' in result)
    queryClient.setQueryData(sepaKeys.file(file.id), result);
  void queryClient.invalidateQueries({ queryKey: sepaKeys.all });
  void queryClient.invalidateQueries({ queryKey: settlementKeys.all });
};

/** A mark of the file (the bank took it, paid it, refused it), offered only where DESIGN §6 has the move. */
function markAction(
  mark: SepaFileAction,
  event: SepaEvent,
  keys: { label: string; title: string; message: string; done: string },
  danger?: true,
) {
  return entityAction({
    id: mark,
    labelKey: keys.label,
    confirm: { titleKey: keys.title, messageKey: keys.message, danger },
    visible: (file: FileEntity) => canTransitionSepa(file.status, event),
    mutate: (file: FileEntity) => markSepaFile(file.id, mark),
    write: refresh,
    done: { key: keys.done },
  });
}

/** DESIGN §6: each mark only where the transition exists; delete only while GENERATED. */
export const SEPA_FILE_ACTIONS: EntityActions<FileEntity, undefined> = {
  entity: 'sepa-file',
  paletteGroupKey: 'sepa.file.paletteGroup',
  id: (file) => file.id,
  params: (file) => ({ msgId: file.msgId, count: file.transferCount }),
  actions: [
    markAction('available', 'HANDED_TO_BANK', {
      label: 'sepa.file.markAvailable',
      title: 'sepa.file.markAvailableTitle',
      message: 'sepa.file.markAvailableMessage',
      done: 'sepa.file.markedAvailable',
    }),
    markAction('paid', 'PAID', {
      label: 'sepa.file.markPaid',
      title: 'sepa.file.markPaidTitle',
      message: 'sepa.file.markPaidMessage',
      done: 'sepa.file.markedPaid',
    }),
    markAction(
      'unavailable',
      'REJECTED',
      {
        label: 'sepa.file.markUnavailable',
        title: 'sepa.file.markUnavailableTitle',
        message: 'sepa.file.markUnavailableMessage',
        done: 'sepa.file.markedUnavailable',
      },
      true,
    ),
    entityAction({
      id: 'delete',
      labelKey: 'sepa.file.delete',
      confirm: { titleKey: 'sepa.file.deleteTitle', messageKey: 'sepa.file.deleteMessage', danger: true },
      visible: (file: FileEntity) => canDeleteSepa(file.status),
      mutate: (file: FileEntity) => deleteSepaFile(file.id),
      write: (queryClient, _result, file) => {
        // The file is gone: its screen reads `null` and leaves; asking for it again would only 404.
        queryClient.setQueryData(sepaKeys.file(file.id), null);
        void queryClient.invalidateQueries({
          predicate: (query) => query.queryKey[0] === 'sepa' && query.queryKey[1] !== 'file',
        });
        void queryClient.invalidateQueries({ queryKey: settlementKeys.all });
      },
      done: { key: 'sepa.file.deleted' },
    }),
  ],
};
