/** The ids of the palette commands run last, newest first, kept across reloads on this browser. */

const STORAGE_KEY = 'palette-recent';
const KEEP = 5;

export function readRecentCommands(): string[] {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(stored) ? stored.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

export function rememberCommand(id: string): void {
  const next = [id, ...readRecentCommands().filter((other) => other !== id)].slice(0, KEEP);
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
  } catch {
    // A full or blocked storage only loses the recent list.
  }
}
