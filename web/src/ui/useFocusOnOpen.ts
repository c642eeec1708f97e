import { useCallback, useRef } from 'react';

/** Controls someone may have gone to while a dialog was opening; the focus stays on them. */
const FIELD = 'input, textarea, select, [role="combobox"]';

/**
 * A dialog's first field, focused once the dialog is shown (its `afterOpenChange`). `autoFocus`
 * alone misses it when the dialog opens without animation, for someone who asked their system for
 * less motion: the field mounts while the dialog is still hidden, and the dialog's focus trap then
 * takes the close button. Keep `autoFocus` beside it: with animation it focuses sooner, and a
 * field chosen during the animation keeps the focus.
 */
export function useFocusOnOpen<Field extends { focus(): void }>() {
  const ref = useRef<Field>(null);
  const afterOpenChange = useCallback((open: boolean) => {
    if (!open) return;
    const active = document.activeElement;
    if (active instanceof HTMLElement && active.matches(FIELD)) return;
    ref.current?.focus();
  }, []);
  return { ref, afterOpenChange };
}
