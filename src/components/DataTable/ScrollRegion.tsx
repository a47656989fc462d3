import type { ReactNode, Ref } from 'react';

/**
 * The scrolling box of a long table (the DataTable's, a statement's preview and lines): a named region
 * that Tab reaches, so a keyboard can scroll it whatever its rows hold (WCAG 2.1.1, axe
 * `scrollable-region-focusable`, issue 29 point 11). Declared here once instead of by each table.
 */
export function ScrollRegion({
  ref,
  label,
  className,
  children,
}: {
  ref: Ref<HTMLElement>;
  label: string;
  /** Added to `data-table-scroll`. */
  className?: string;
  children: ReactNode;
}) {
  return (
    <section
      ref={ref}
      className={className ? `data-table-scroll ${className}` : 'data-table-scroll'}
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1, axe scrollable-region-focusable)
      tabIndex={0}
    >
      {children}
    </section>
  );
}
