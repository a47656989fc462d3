import { useCallback, useState } from 'react';

/**
 * A form's request whose failure the form shows itself: unlike `useMutation`, it does not reach the
 * query client's global error toast, so the message appears once, in place.
 */
export function useFormRequest<A, R>(send: (argument: A) => Promise<R>, onSuccess: (result: R) => void) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = useCallback(
    async (argument: A) => {
      setPending(true);
      setError(null);
      try {
        const result = await send(argument);
        setPending(false);
        onSuccess(result);
      } catch (reason) {
        setPending(false);
        setError(reason);
      }
    },
    [send, onSuccess],
  );
  const reset = useCallback(() => setError(null), []);
  return { run, pending, error, reset };
}
