import { useI18n } from '../i18n/i18n';
import { type ReadableValue, readableChanges, readableText } from './audit-values';

function Value({ value, as: Tag }: { value: ReadableValue; as: 'del' | 'ins' }) {
  if (typeof value === 'string') return <Tag>{value}</Tag>;
  return (
    <Tag>
      <ul className="audit-lines">
        {value.map((line, index) => (
          // Lines of one value never reorder: the index is their identity.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <li key={index}>
            <span className="audit-field">{line.label}</span> {line.value}
          </li>
        ))}
      </ul>
    </Tag>
  );
}

/**
 * An audit row's change as people read it (decision 0128). `inline`: one line per field, for a table
 * row of fixed height (nested values joined, the whole text in the tooltip); otherwise each field on
 * its own lines, wrapped inside its container (a history dialog).
 */
export function AuditChanges({
  before,
  after,
  entityType,
  inline = false,
}: {
  before: unknown;
  after: unknown;
  entityType?: string;
  inline?: boolean;
}) {
  const { t, locale } = useI18n();
  const changes = readableChanges(before, after, { t, locale, entityType });
  if (changes.length === 0) return <span className="audit-nochange">—</span>;
  if (inline) {
    const text = (value: ReadableValue | undefined) =>
      value === undefined ? undefined : readableText(value);
    const title = changes
      .map((c) => `${c.label}: ${[text(c.before), text(c.after)].filter(Boolean).join(' → ')}`)
      .join('\n');
    return (
      <span className="audit-diff" title={title}>
        {changes.map((change) => (
          <span key={change.field} className="audit-change">
            <span className="audit-field">{change.label}</span>{' '}
            {change.before !== undefined ? <del>{text(change.before)}</del> : null}
            {change.before !== undefined && change.after !== undefined ? ' → ' : null}
            {change.after !== undefined ? <ins>{text(change.after)}</ins> : null}
          </span>
        ))}
      </span>
    );
  }
  return (
    <dl className="audit-changes">
      {changes.map((change) => (
        <div key={change.field}>
          <dt className="audit-field">{change.label}</dt>
          <dd>
            {change.before !== undefined ? <Value value={change.before} as="del" /> : null}
            {change.before !== undefined && change.after !== undefined ? ' → ' : null}
            {change.after !== undefined ? <Value value={change.after} as="ins" /> : null}
          </dd>
        </div>
      ))}
    </dl>
  );
}
