import { useInfiniteQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useParams } from 'wouter';
import { caseMessagesQuery } from '../../api/cases';
import { useI18n } from '../../i18n/i18n';
import { useHistoryCommand } from '../../kernel/audit';
import { formatError } from '../../kernel/error-format';
import { CaseHeader } from './CaseHeader';
import { useCaseActions } from './case-actions';
import { MessageTimeline } from './MessageTimeline';

export default function ChatScreen() {
  const { id = '' } = useParams<{ id: string }>();
  const { t } = useI18n();
  const query = useInfiniteQuery({ ...caseMessagesQuery(id), meta: { inlineError: true } });
  const pages = query.data?.pages;
  // Every page repeats the case; closing writes the answer into all of them (case-actions.tsx).
  const item = pages?.at(-1)?.case;
  const messages = useMemo(() => pages?.flatMap((p) => p.items) ?? [], [pages]);
  // The buttons, the palette's "Close case" and the confirmation, from one definition.
  const { actions, dialog } = useCaseActions(item);
  useHistoryCommand(t, 'case', item?.id, 'palette.caseHistory', 'palette.groups.case');

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
        actions={actions.map((action) => (
          <button
            key={action.id}
            type="button"
            className={action.danger ? 'danger' : undefined}
            onClick={action.run}
          >
            {action.label}
          </button>
        ))}
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
