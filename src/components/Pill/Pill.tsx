import type { ReactNode } from 'react';

/**
 * What a status means to the admin, which is all its colour says (issue 14): done or in order,
 * waiting on someone, gone wrong or refused, and over with nothing to do.
 */
export type Tone = 'success' | 'waiting' | 'danger' | 'neutral';

/** A status as a pill coloured by its tone (tokens in styles.css, each ≥ 4.5:1 on its background). */
export function Pill({ tone, children, testId }: { tone: Tone; children: ReactNode; testId?: string }) {
  return (
    <span className="pill" data-tone={tone} data-testid={testId}>
      {children}
    </span>
  );
}
