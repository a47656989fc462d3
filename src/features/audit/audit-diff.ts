/** One field an audit row changed: its value before and after (absent: the field did not exist). */
export interface FieldChange {
  field: string;
  before?: string;
  after?: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const show = (value: unknown): string =>
  typeof value === 'string' ? value : value === null ? '—' : JSON.stringify(value);

/**
 * The fields that differ between `before` and `after`, in the order they first appear. Objects are
 * compared field by field; anything else (a list, a bare value) is one change named `value`.
 */
export function auditDiff(before: unknown, after: unknown): FieldChange[] {
  if (before == null && after == null) return [];
  if (!(isRecord(before) || before == null) || !(isRecord(after) || after == null)) {
    return show(before) === show(after) ? [] : [{ field: 'value', before: show(before), after: show(after) }];
  }
  const from = before ?? {};
  const to = after ?? {};
  const fields = [...new Set([...Object.keys(from), ...Object.keys(to)])];
  return fields.flatMap((field) => {
    const [had, has] = [field in from, field in to];
    const [was, is] = [had ? show(from[field]) : undefined, has ? show(to[field]) : undefined];
    if (was === is) return [];
    return [
      { field, ...(was === undefined ? {} : { before: was }), ...(is === undefined ? {} : { after: is }) },
    ];
  });
}
