/**
 * A CSV's columns as the user names them, read the same way for every CSV the product takes with a
 * saved mapping: bank statements (`csv.ts`) and the Portuguese payment collectors' payout reports
 * (`domain/sources/provider-csv.ts`, decision 0149). A column is named by its header (compared without
 * case, accents or punctuation) or by its 0-based index.
 */
export type ColumnMapping<Field extends string> = Partial<Record<Field, string | number>> & {
  /** 1-based line of the header row; 0: the file has none (columns by index only). */
  headerLine?: number;
  delimiter?: string;
};

/** A header as it is compared: `Data Valor`, `data-valor` and `DATA VALOR` are one name. */
export function normalizeHeader(h: string): string {
  return h
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** Each mapped field's column in `header`, or null when a name is not among its cells. */
export function resolveColumns<Field extends string>(
  mapping: ColumnMapping<Field>,
  header: readonly string[] | null,
): Partial<Record<Field, number>> | null {
  const cols: Partial<Record<Field, number>> = {};
  for (const [key, value] of Object.entries(mapping)) {
    if (key === 'headerLine' || key === 'delimiter' || value == null) continue;
    const idx =
      typeof value === 'number'
        ? value
        : (header ?? []).findIndex((h) => normalizeHeader(h) === normalizeHeader(String(value)));
    if (idx < 0) return null;
    cols[key as Field] = idx;
  }
  return cols;
}
