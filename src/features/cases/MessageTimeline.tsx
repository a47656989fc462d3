import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import type { CaseMessage } from '../../api/cases';
import { useI18n } from '../../i18n/i18n';
import { MessageItem } from './MessageItem';

// How close to the last loaded message the next page is asked for.
const PREFETCH_ROWS = 10;

export interface MessageTimelineProps {
  messages: readonly CaseMessage[];
  total: number;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore(): void;
}

/**
 * Only the messages in view are in the DOM, each measured as it renders (text, voice and
 * attachments differ in height); pages after the loaded ones are fetched on approach.
 */
export function MessageTimeline({ messages, total, hasMore, loadingMore, loadMore }: MessageTimelineProps) {
  const { t } = useI18n();
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 88,
    overscan: 6,
    getItemKey: (index) => messages[index]?.id ?? index,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? -1;

  useEffect(() => {
    if (hasMore && !loadingMore && lastIndex >= messages.length - PREFETCH_ROWS) loadMore();
  }, [hasMore, loadingMore, lastIndex, messages.length, loadMore]);

  if (messages.length === 0) return <p className="timeline-empty">{t('chat.noMessages')}</p>;

  return (
    <section className="timeline" aria-label={t('chat.timeline', { count: total })}>
      <p className="timeline-count">{t('chat.timeline', { count: total })}</p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the scroller takes focus so arrows and Page Down scroll it */}
      <div className="timeline-scroller" ref={scroller} tabIndex={0} role="log" aria-busy={loadingMore}>
        <div className="timeline-inner" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const message = messages[item.index];
            if (!message) return null;
            return (
              <div
                key={item.key}
                className="timeline-row"
                data-index={item.index}
                ref={virtualizer.measureElement}
                style={{ transform: `translateY(${item.start}px)` }}
              >
                <MessageItem message={message} />
              </div>
            );
          })}
        </div>
      </div>
    </section>
  );
}
