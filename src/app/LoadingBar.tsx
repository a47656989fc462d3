import { useEffect, useState, useSyncExternalStore } from 'react';
import { inFlightRequests } from '../api/http';

export const LOADING_THROTTLE_MS = 200;
export const LOADING_DURATION_MS = 5000;

/** Shown only for requests slower than the throttle, so fast pages do not flicker (spec §9). */
export function LoadingBar() {
  const inFlight = useSyncExternalStore(inFlightRequests.subscribe, inFlightRequests.get);
  const [phase, setPhase] = useState<'idle' | 'running' | 'finishing'>('idle');

  useEffect(() => {
    if (inFlight > 0) {
      if (phase !== 'idle') return;
      const timer = setTimeout(() => setPhase('running'), LOADING_THROTTLE_MS);
      return () => clearTimeout(timer);
    }
    if (phase === 'running') {
      setPhase('finishing');
      return;
    }
    if (phase === 'finishing') {
      const timer = setTimeout(() => setPhase('idle'), 300);
      return () => clearTimeout(timer);
    }
  }, [inFlight, phase]);

  if (phase === 'idle') return null;
  return (
    <div
      className={`loading-bar loading-bar-${phase}`}
      style={{ animationDuration: `${LOADING_DURATION_MS}ms` }}
      aria-hidden="true"
    />
  );
}
