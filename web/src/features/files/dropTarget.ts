/**
 * Where a card dropped on another's place goes, as collection/move takes it: the id of the card that
 * will follow it, null for last, or undefined when nothing is to move (dropped on itself, or unknown
 * ids) or when its place is the end of what is loaded while more follows (its neighbour is not known).
 */
export function dropTarget(
  ids: readonly number[],
  moving: number,
  onto: number,
  hasMore: boolean,
): number | null | undefined {
  const from = ids.indexOf(moving);
  const to = ids.indexOf(onto);
  if (from < 0 || to < 0 || from === to) return undefined;
  const rest = ids.filter((id) => id !== moving);
  // Moving forward it lands after the card it was dropped on; moving back, before it.
  const after = from < to ? rest[to] : onto;
  if (after === undefined) return hasMore ? undefined : null;
  return after;
}
