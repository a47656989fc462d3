import { useCallback, useState } from 'react';

export type Visibility = Record<string, boolean>;

const storageKey = (tableId: string) => `table-columns:${tableId}`;

function read(tableId: string): Visibility {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(storageKey(tableId)) ?? '{}');
    if (typeof parsed !== 'object' || parsed === null) return {};
    return Object.fromEntries(Object.entries(parsed).filter(([, v]) => typeof v === 'boolean'));
  } catch {
    return {};
  }
}

/** Which columns an admin hid, remembered per table in this browser. */
export function useColumnVisibility(tableId: string): [Visibility, (next: Visibility) => void] {
  const [visibility, setVisibility] = useState(() => read(tableId));
  const update = useCallback(
    (next: Visibility) => {
      localStorage.setItem(storageKey(tableId), JSON.stringify(next));
      setVisibility(next);
    },
    [tableId],
  );
  return [visibility, update];
}
