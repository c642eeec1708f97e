import { useCallback, useState } from 'react';
import { showApiError } from './showApiError';

/**
 * A user action that calls the API, as a dialog's button runs it: `busy` while it runs (the
 * button's spinner), a refusal shown by `showApiError`, anything else a bug that propagates.
 */
export function useBusyAction(): readonly [
  busy: boolean,
  run: (action: () => Promise<void>) => Promise<void>,
] {
  const [busy, setBusy] = useState(false);
  const run = useCallback(async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } catch (error) {
      showApiError(error);
    } finally {
      setBusy(false);
    }
  }, []);
  return [busy, run] as const;
}
