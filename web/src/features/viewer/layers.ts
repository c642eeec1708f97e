/**
 * Issue 39 item 2: the viewer is a layer too. A key belongs to it only when no layer is open above
 * it (a dialog, a confirm, a picker, a select's list, a popover) and the key was not pressed inside
 * one: Esc then closes only the top-most layer, which Ant Design's own handler does for its layers.
 * Tooltips are no layer: Esc over a hovered button still closes the viewer.
 */
const LAYERS = [
  '.ant-modal-wrap',
  '.ant-drawer',
  '.ant-select-dropdown',
  '.ant-picker-dropdown',
  '.ant-cascader-dropdown',
  '.ant-popover',
  '.ant-dropdown',
  '.ant-image-preview',
  '.ant-tour',
].join(', ');

/** Whether a layer outside `viewer` is shown (a closed one is display: none, so it has no boxes). */
export function layerAbove(viewer: Element | null): boolean {
  for (const element of document.querySelectorAll(LAYERS)) {
    if (viewer?.contains(element)) continue;
    if (element.getClientRects().length > 0) return true;
  }
  return false;
}

/** Whether a key press is the viewer's to act on (not typing, not in or under another layer). */
export function keyIsViewers(event: KeyboardEvent, viewer: Element | null): boolean {
  if (event.defaultPrevented || event.isComposing) return false;
  const target = event.target instanceof Element ? event.target : null;
  if (target?.closest('input, textarea, select, [contenteditable="true"], .ant-picker-dropdown'))
    return false;
  // Focus in another layer (a dialog portalled to the body) is that layer's key; focus left on the
  // listing under the viewer (the card it was opened from) is not.
  if (target?.closest(LAYERS) && !viewer?.contains(target)) return false;
  return !layerAbove(viewer);
}
