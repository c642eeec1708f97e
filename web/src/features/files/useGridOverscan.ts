import { type RefObject, useEffect, useState } from 'react';

/**
 * Rows drawn beyond the screen: two for the first paint, whose render they make ~40 % cheaper
 * (issue 12 goal 4), then six once the first thumbnail has arrived (or a moment has passed
 * without one), so that scrolling finds cards ready.
 */
const FIRST_OVERSCAN = 2;
const OVERSCAN = 6;
/** How long the grid waits for a first thumbnail before drawing the wider margin anyway. */
const WIDEN_WITHOUT_THUMBNAIL_MS = 1_500;

/**
 * The rows the grid draws beyond the screen: FIRST_OVERSCAN until the first thumbnail has arrived
 * (or a moment has passed), then OVERSCAN. `drawn`: the grid has measured itself and has cards.
 */
export function useGridOverscan(scroller: RefObject<HTMLDivElement | null>, drawn: boolean): number {
  const [overscan, setOverscan] = useState(FIRST_OVERSCAN);
  useEffect(() => {
    const element = scroller.current;
    if (!element || !drawn || overscan === OVERSCAN) return;
    let idle: number | null = null;
    const widen = () => {
      if (idle !== null) return;
      // When the page is idle: after the frame that paints the thumbnail, not before it.
      idle =
        typeof window.requestIdleCallback === 'function'
          ? window.requestIdleCallback(() => setOverscan(OVERSCAN), { timeout: 500 })
          : window.setTimeout(() => setOverscan(OVERSCAN), 50);
    };
    // `load` does not bubble, but it passes the scroller on its way down (capture).
    element.addEventListener('load', widen, { capture: true, once: true });
    const fallback = window.setTimeout(widen, WIDEN_WITHOUT_THUMBNAIL_MS);
    return () => {
      element.removeEventListener('load', widen, { capture: true });
      window.clearTimeout(fallback);
      if (idle === null) return;
      if (typeof window.cancelIdleCallback === 'function') window.cancelIdleCallback(idle);
      else window.clearTimeout(idle);
    };
  }, [scroller, drawn, overscan]);
  return overscan;
}
