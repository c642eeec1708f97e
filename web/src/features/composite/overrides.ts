import type { MakerArticle, SlotOverride } from '@dam/contract';

/** Slots chosen by hand on the compose screen: per article number, per slot, the file. */
export type Overrides = Readonly<Record<string, Readonly<Record<string, number>>>>;

/** Chooses `itemId` for a slot; choosing what the rule chose anyway drops the override. */
export function setOverride(
  overrides: Overrides,
  artNum: string,
  slot: string,
  itemId: number | null,
  ruleChoice: number | null,
): Overrides {
  const { [slot]: _dropped, ...rest } = overrides[artNum] ?? {};
  const mine = itemId === null || itemId === ruleChoice ? rest : { ...rest, [slot]: itemId };
  const { [artNum]: _old, ...others } = overrides;
  return Object.keys(mine).length > 0 ? { ...others, [artNum]: mine } : others;
}

/** What makerImage is sent, for the articles being rendered only. */
export function overrideList(overrides: Overrides, artNums: readonly string[]): SlotOverride[] {
  const wanted = new Set(artNums);
  return Object.entries(overrides).flatMap(([artNum, slots]) =>
    wanted.has(artNum) ? Object.entries(slots).map(([slot, itemId]) => ({ artNum, slot, itemId })) : [],
  );
}

/** Each slot's file as the article will be rendered: the hand-chosen one, else the rule's. */
export function effectiveChoices(
  article: MakerArticle,
  mine: Readonly<Record<string, number>> = {},
): Record<string, number | null> {
  return Object.fromEntries(article.slots.map((slot) => [slot.slot, mine[slot.slot] ?? slot.chosen]));
}
