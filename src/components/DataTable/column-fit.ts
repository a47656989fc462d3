import type { Visibility } from './column-visibility';

export interface FittedColumn {
  id: string;
  /** CSS grid track, e.g. `12rem` or `minmax(8rem, 1fr)`. */
  width?: string;
  hideable?: boolean;
}

export const DEFAULT_TRACK = 'minmax(8rem, 1fr)';

/** The least a grid track takes, in px: its first length (`12rem`, `minmax(8rem, 1fr)`, `90px`). */
export function trackMinimum(track: string, remPx: number): number {
  const length = /(\d+(?:\.\d+)?)(rem|px)/.exec(track);
  if (!length) return 0;
  const value = Number(length[1]);
  return length[2] === 'rem' ? value * remPx : value;
}

/**
 * The columns to hide so that the others fit `available` px without a sideways scroll (issue 14):
 * from the rightmost hideable column leftwards (a table lists its columns by importance), skipping
 * any the admin chose in the column chooser — a column they asked to see stays. Nothing is hidden
 * before the width is known (0).
 */
export function columnsToHide(
  columns: readonly FittedColumn[],
  chosen: Visibility,
  available: number,
  remPx: number,
): Visibility {
  if (available <= 0) return {};
  const shown = columns.filter((column) => chosen[column.id] !== false);
  let needed = shown.reduce((sum, column) => sum + trackMinimum(column.width ?? DEFAULT_TRACK, remPx), 0);
  const hidden: Visibility = {};
  for (const column of [...shown].reverse()) {
    if (needed <= available) break;
    if (column.hideable === false || chosen[column.id] === true) continue;
    hidden[column.id] = false;
    needed -= trackMinimum(column.width ?? DEFAULT_TRACK, remPx);
  }
  return hidden;
}
