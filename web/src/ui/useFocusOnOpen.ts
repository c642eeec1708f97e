import { useCallback, useRef } from 'react';

/**
 * A dialog's first field, focused once the dialog is shown (its `afterOpenChange`). `autoFocus`
 * alone misses it when the dialog opens without animation, for someone who asked their system for
 * less motion: the field mounts while the dialog is still hidden, and the dialog's focus trap then
 * takes the close button. Keep `autoFocus` beside it: with animation it focuses sooner.
 */
export function useFocusOnOpen<Field extends { focus(): void }>() {
  const ref = useRef<Field>(null);
  const afterOpenChange = useCallback((open: boolean) => {
    if (open) ref.current?.focus();
  }, []);
  return { ref, afterOpenChange };
}
