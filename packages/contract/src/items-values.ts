/**
 * Folders and files (SPEC §3 File / folder item). An item is a folder or a logical file: one
 * base name in one folder, grouping its formats (`SHOE123.jpg` + `SHOE123.psd`). The constants
 * without zod (the schemas are in items.ts, which re-exports these): pages that only read them
 * stay without zod (issue 10 item 7).
 */
export const ItemType = { folder: 1, image: 2, video: 3, other: 4 } as const;
export type ItemType = (typeof ItemType)[keyof typeof ItemType];
/** SPEC §4 file state: normal, or removed (in the recycle bin). */
export const ItemState = { normal: 1, removed: 2 } as const;
export type ItemState = (typeof ItemState)[keyof typeof ItemState];

/** Sort toggle of SPEC §2: normal → up → down → normal. */
export const RankStatus = { normal: '0', up: '1', down: '2' } as const;
export type RankStatus = (typeof RankStatus)[keyof typeof RankStatus];

/**
 * What a folder listing's up/down order sorts by (issue 39): name (the default, as before this
 * field), upload time, last change, size (all formats' latest records) or type (the formats, then
 * the name). Folders always come first; ties are broken by id. rankStatus normal ignores it.
 */
export const SortField = {
  name: 'name',
  uploaded: 'uploaded',
  modified: 'modified',
  size: 'size',
  type: 'type',
} as const;
export type SortField = (typeof SortField)[keyof typeof SortField];

export const PAGE_SIZE_DEFAULT = 50;
export const PAGE_SIZE_MAX = 200;

/** `all` (or 0, or nothing) is the top level, "all files". */
export const isTopLevel = (ref: number | 'all' | null | undefined): boolean =>
  ref === undefined || ref === null || ref === 'all' || ref === 0;
