import type { QueryClient } from '@tanstack/react-query';
import { canDeleteSepa, canTransitionSepa } from '../../../domain/sepa-status';
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

/** DESIGN §6: each mark only where the transition exists; delete only while GENERATED. */
export const SEPA_FILE_ACTIONS: EntityActions<FileEntity, undefined> = {
  entity: 'sepa-file',
  paletteGroupKey: 'sepa.file.paletteGroup',
  id: (file) => file.id,
  params: (file) => ({ msgId: file.msgId, count: file.transferCount }),
  actions: [
    entityAction({
      id: 'available',
      labelKey: 'sepa.file.markAvailable',
      confirm: { titleKey: 'sepa.file.markAvailableTitle', messageKey: 'sepa.file.markAvailableMessage' },
      visible: (file: FileEntity) => canTransitionSepa(file.status, 'HANDED_TO_BANK'),
      mutate: (file: FileEntity) => markSepaFile(file.id, 'available'),
      write: refresh,
      done: { key: 'sepa.file.markedAvailable' },
    }),
    entityAction({
      id: 'paid',
      labelKey: 'sepa.file.markPaid',
      confirm: { titleKey: 'sepa.file.markPaidTitle', messageKey: 'sepa.file.markPaidMessage' },
      visible: (file: FileEntity) => canTransitionSepa(file.status, 'PAID'),
      mutate: (file: FileEntity) => markSepaFile(file.id, 'paid'),
      write: refresh,
      done: { key: 'sepa.file.markedPaid' },
    }),
    entityAction({
      id: 'unavailable',
      labelKey: 'sepa.file.markUnavailable',
      confirm: {
        titleKey: 'sepa.file.markUnavailableTitle',
        messageKey: 'sepa.file.markUnavailableMessage',
        danger: true,
      },
      visible: (file: FileEntity) => canTransitionSepa(file.status, 'REJECTED'),
      mutate: (file: FileEntity) => markSepaFile(file.id, 'unavailable'),
      write: refresh,
      done: { key: 'sepa.file.markedUnavailable' },
    }),
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
