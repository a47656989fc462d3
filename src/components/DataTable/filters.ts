export interface FilterOption {
  value: string;
  label: string;
}

/** A filter the table offers (its own module, so DataTable and FilterControl do not import each other). */
export type DataFilter =
  | { key: string; label: string; kind: 'select' | 'multi'; options: readonly FilterOption[] }
  /** Euros typed by the admin, sent as cents. */
  | { key: string; label: string; kind: 'amount' }
  | { key: string; label: string; kind: 'date' }
  /** Free text, applied on Enter or when the box is left (an id pasted or set by a link). */
  | { key: string; label: string; kind: 'text' };
