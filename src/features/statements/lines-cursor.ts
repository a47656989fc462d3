import { useCallback, useEffect, useRef, useState } from 'react';
import { STATEMENT_IGNORABLE_STATUSES, SUGGESTION_SCORE_FILTERS } from '../../../contract/statuses';
import type { CursorMove } from '../../../machines/reconciliation';

/** What the cursor reads of a row: which line it is, and whether it still needs a decision. */
interface CursorRow {
  id: string;
  status: string;
  suggestion: { score: number } | null;
}

/** The active row, held by its line: a refetch that adds or drops rows above it does not move it. */
interface Cursor {
  lineId: string;
  /** Where it was last seen: found at once when nothing moved, and the fallback when the line left. */
  index: number;
}

const OPEN: ReadonlySet<string> = new Set(STATEMENT_IGNORABLE_STATUSES);

/**
 * Pages the search for the next open line reads past the decided line before it stops (10 × 500 lines):
 * with every line listed and a month nearly done, the next open line may lie a million lines below, and
 * reading there would hold every page in the browser. The open-lines filter reaches them at once.
 */
const SEEK_PAGES_AT_MOST = 10;

/** A sure suggestion's score (the matcher's SURE_SUGGESTION, the score filter's highest). */
export const SURE_SCORE = Number(SUGGESTION_SCORE_FILTERS[0]);

/** The row is open with a sure suggestion, which the score filter's `Shift+a` takes. */
export const suggestedSure = (row: CursorRow) =>
  row.status === 'SUGGESTED' && (row.suggestion?.score ?? 0) >= SURE_SCORE;

/**
 * The first row below `from` whose line still needs a person (decision 0169), or -1: open, and not one
 * of `passOver` still suggested sure — lines a decision above made sure by saying them again (decision
 * 0179), left for the score filter's `Shift+a`. Lines sure since the import are not passed over: going
 * through them one by one with `a` is a review the table keeps.
 */
export function nextOpenIndex(
  rows: readonly CursorRow[],
  from: number,
  passOver: ReadonlySet<string>,
): number {
  for (let i = from + 1; i < rows.length; i++) {
    const row = rows[i]!;
    if (OPEN.has(row.status) && !(passOver.has(row.id) && suggestedSure(row))) return i;
  }
  return -1;
}

/**
 * The cursor's row now: its line where it is; when the line left the list (read again under a filter it no
 * longer meets), the row that took its place.
 */
function indexOf(rows: readonly CursorRow[], cursor: Cursor | null): number {
  if (!cursor || rows.length === 0) return -1;
  if (rows[cursor.index]?.id === cursor.lineId) return cursor.index;
  const found = rows.findIndex((row) => row.id === cursor.lineId);
  return found >= 0 ? found : Math.min(cursor.index, rows.length - 1);
}

/** The pages of the list beyond those loaded (react-query's infinite query). */
interface MorePages {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  fetchNextPage(): unknown;
}

/**
 * The reconciliation table's active row (decision 0169): moved by `j`/`k` and clicks (`activate`), and by
 * the machine once the server has answered (`follow`): after one line's decision, to the next line below
 * that still needs one — fetching the list's next pages until one comes, the list ends or
 * SEEK_PAGES_AT_MOST pages were read (`seeking` while a page is on its way; `readWithoutOpen` when it
 * stopped at the bound), only while the cursor is still on the line decided (a key pressed meanwhile wins); after an
 * undo, to the line it undid when it is loaded. No open line below: it stays.
 */
export function useLinesCursor(
  rows: readonly CursorRow[],
  pages: MorePages,
  scrollTo: (index: number) => void,
  passOver: ReadonlySet<string>,
) {
  const [cursor, setCursor] = useState<Cursor | null>(null);
  const [move, setMove] = useState<CursorMove | null>(null);
  /** Pages the current search has asked for (a ref: counting must not run the search again). */
  const pagesRead = useRef(0);
  /** The search stopped at its bound: how many lines below the decided one it read without an open one. */
  const [readWithoutOpen, setReadWithoutOpen] = useState<number | null>(null);
  const active = indexOf(rows, cursor);

  const go = useCallback(
    (index: number) => {
      const row = rows[index];
      if (!row) return;
      setCursor({ lineId: row.id, index });
      scrollTo(index);
    },
    [rows, scrollTo],
  );
  const activate = useCallback(
    (index: number) => {
      setMove(null);
      setReadWithoutOpen(null);
      go(index);
    },
    [go],
  );
  const reset = useCallback(() => {
    setCursor(null);
    setMove(null);
    setReadWithoutOpen(null);
  }, []);
  const follow = useCallback((next: CursorMove) => {
    setMove(next);
    pagesRead.current = 0;
    setReadWithoutOpen(null);
  }, []);

  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = pages;
  useEffect(() => {
    if (!move) return;
    if (move.kind === 'line') {
      const at = rows.findIndex((row) => row.id === move.lineId);
      if (at >= 0) go(at);
      return setMove(null);
    }
    if (rows[active]?.id !== move.after) return setMove(null);
    const next = nextOpenIndex(rows, active, passOver);
    if (next >= 0) {
      go(next);
      return setMove(null);
    }
    // None loaded below: the next page may hold one. A page that failed ends the search where it is; so
    // does the bound, saying so.
    if (!hasNextPage || isFetchNextPageError) return setMove(null);
    if (isFetchingNextPage) return;
    if (pagesRead.current >= SEEK_PAGES_AT_MOST) {
      setReadWithoutOpen(rows.length - active - 1);
      return setMove(null);
    }
    pagesRead.current++;
    void fetchNextPage();
  }, [
    move,
    rows,
    active,
    go,
    passOver,
    hasNextPage,
    isFetchingNextPage,
    isFetchNextPageError,
    fetchNextPage,
  ]);

  return {
    active,
    activate,
    reset,
    follow,
    seeking: move?.kind === 'nextOpen' && isFetchingNextPage,
    readWithoutOpen,
  };
}
