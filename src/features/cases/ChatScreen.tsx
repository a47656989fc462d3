import { useInfiniteQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useParams } from 'wouter';
import { caseMessagesQuery } from '../../api/cases';
import { useI18n } from '../../i18n/i18n';
import { formatError } from '../../kernel/error-format';
import { type PaletteCommand, useRegisterCommands } from '../../kernel/palette-registry';
import { CaseHeader } from './CaseHeader';
import { MessageTimeline } from './MessageTimeline';
import { useCloseCase } from './useCloseCase';

export default function ChatScreen() {
  const { id = '' } = useParams<{ id: string }>();
  const { t } = useI18n();
  const query = useInfiniteQuery(caseMessagesQuery(id));
  const { confirmClose, dialog } = useCloseCase();
  const pages = query.data?.pages;
  // Every page repeats the case; the newest page is the freshest after a close.
  const item = pages?.at(-1)?.case;
  const messages = useMemo(() => pages?.flatMap((p) => p.items) ?? [], [pages]);

  const close = useCallback(() => {
    if (item && !item.closed) confirmClose(item);
  }, [item, confirmClose]);

  const commands = useMemo<PaletteCommand[]>(
    () =>
      item && !item.closed
        ? [
            {
              id: `case:close:${item.id}`,
              group: t('palette.groups.case'),
              label: t('cases.close.action'),
              run: close,
            },
          ]
        : [],
    [item, close, t],
  );
  useRegisterCommands('case', commands);

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);

  if (query.isError)
    return (
      <p className="screen-error" role="alert">
        {formatError(query.error, t).message}
      </p>
    );
  if (!item) return <p className="screen-loading">{t('app.loading')}</p>;

  return (
    <div className="chat-screen">
      <CaseHeader
        item={item}
        actions={
          item.closed ? null : (
            <button type="button" className="danger" onClick={close}>
              {t('cases.close.action')}
            </button>
          )
        }
      />
      <MessageTimeline
        messages={messages}
        total={pages?.[0]?.total ?? 0}
        hasMore={hasNextPage}
        loadingMore={isFetchingNextPage}
        loadMore={loadMore}
      />
      {dialog}
    </div>
  );
}
