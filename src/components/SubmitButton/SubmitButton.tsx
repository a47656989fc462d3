import type { ReactNode } from 'react';

/**
 * A form's submit button while its request runs: `aria-disabled`, not `disabled`, since a disabled
 * button drops the focus it has to `<body>` (issue 29 point 6, decision 0140); a click or an Enter
 * meanwhile submits nothing. `disabled` stays for a form that cannot be sent at all.
 */
export function SubmitButton({
  pending,
  disabled,
  className,
  children,
}: {
  pending: boolean;
  disabled?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <button
      type="submit"
      className={className}
      disabled={disabled}
      aria-disabled={pending || undefined}
      aria-busy={pending || undefined}
      onClick={(event) => {
        // Enter in a field clicks the submit button too: one request at a time.
        if (pending) event.preventDefault();
      }}
    >
      {children}
    </button>
  );
}
