import { type InputHTMLAttributes, useEffect, useState } from 'react';

interface CommitInputProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'onBlur' | 'type'> {
  /** The applied value, as the URL holds it ('' for none). */
  committed: string;
  /** How the applied value is written in the box. */
  shown(committed: string): string;
  /** What the typed text applies (never '' for typed text), or null when it cannot be read. */
  parse(text: string): string | null;
  onCommit(value: string): void;
  /** Said (as the title) while the typed text cannot be read. */
  invalidHint?: string;
}

/**
 * A text box applied on Enter or when it is left, so typing does not fetch a page per key; text it
 * cannot read stays in the box, marked invalid, and changes nothing.
 */
export function CommitInput({ committed, shown, parse, onCommit, invalidHint, ...input }: CommitInputProps) {
  const [draft, setDraft] = useState(() => shown(committed));
  const [invalid, setInvalid] = useState(false);
  // Back/forward, a preset or a pasted link changes the value under the box.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `shown` is a formatter, not state
  useEffect(() => {
    setDraft(shown(committed));
    setInvalid(false);
  }, [committed]);

  const commit = () => {
    const text = draft.trim();
    const value = text === '' ? '' : parse(text);
    setInvalid(value === null);
    if (value !== null && value !== committed) onCommit(value);
  };

  return (
    <input
      {...input}
      type="text"
      aria-invalid={invalid}
      title={invalid ? invalidHint : input.title}
      value={draft}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit();
      }}
    />
  );
}
