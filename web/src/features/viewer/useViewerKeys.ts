import { type RefObject, useEffect } from 'react';
import { keyIsViewers } from './layers';

/**
 * The viewer takes the focus off the card it was opened from; ←, → and Esc step and close, only
 * while no layer is open above it (issue 39 item 2, see layers.ts).
 */
export function useViewerKeys(
  overlay: RefObject<HTMLDivElement | null>,
  on: { close: () => void; go: (step: 1 | -1) => void },
) {
  // Focus moves into the viewer, off the card it was opened from.
  useEffect(() => {
    overlay.current?.focus();
  }, [overlay]);

  // Bound anew on each render: the handlers see the file and list shown now.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!keyIsViewers(event, overlay.current)) return;
      if (event.key === 'Escape') on.close();
      if (event.key === 'ArrowLeft') on.go(-1);
      if (event.key === 'ArrowRight') on.go(1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });
}
