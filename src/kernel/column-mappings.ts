import type { ColumnMapping } from '../../domain/statements/csv-mapping';

/**
 * The column mappings an admin confirmed for a CSV, remembered in the browser by the file's header: the
 * next file with the same header reads the same, without asking again. One memory per kind of CSV (bank
 * statements, a collector's payout reports), each under its own storage name.
 */

/** A CSV header as the memory of mappings knows it: cells trimmed, case ignored. */
export const headerKey = (header: readonly string[]) =>
  header.map((cell) => cell.trim().toLowerCase()).join('\u001f');

/** Every mapping remembered under `memory`, by `headerKey`. */
export function rememberedMappings<Field extends string>(
  memory: string,
): Record<string, ColumnMapping<Field>> {
  try {
    return JSON.parse(localStorage.getItem(memory) ?? '{}') as Record<string, ColumnMapping<Field>>;
  } catch {
    return {};
  }
}

export function rememberMapping<Field extends string>(
  memory: string,
  header: readonly string[],
  mapping: ColumnMapping<Field>,
): void {
  localStorage.setItem(
    memory,
    JSON.stringify({ ...rememberedMappings(memory), [headerKey(header)]: mapping }),
  );
}
