import {
  type ComposeWarning,
  type FillRule,
  type Language,
  type MissingSlot,
  ruleSlotName,
  ruleSubject,
  type SlotInfo,
  type SlotNaming,
  slotKeysOf,
  TEXT_FIELDS,
  type TemplateSpec,
  type TextField,
  unfilledRequiredSlots,
  viewCodeOfName,
} from '@dam/contract';
import { type Clock, calendarDate } from '../../lib/clock';
import { type AuthContext, fileScopeFilter } from '../access/access';
import type { DownloadSource } from '../downloads/repository';
import { canDownload } from '../items/policy';
import { isExpired } from '../items/presenter';
import { SHARP_FORMATS } from '../media/decode';
import type { MakerRepository } from './maker.repository';

/**
 * Slot filling (issue 16, plan §4): which of an article's files goes into each image slot of a
 * template. Candidates are the files the caller may download (not only see: the page copies their
 * pixels), valid today (SPEC §4), in an image format, and not themselves outputs of a render.
 * Matching reuses the completeness report's rule, so a slot finds what the report counts as that view.
 */

/** The record a slot renders from, best first: PSD last, its composite is the dearest to decode. */
export const SOURCE_FORMAT_ORDER = [
  'jpg',
  'jpeg',
  'png',
  'webp',
  'tif',
  'tiff',
  'heic',
  'avif',
  'bmp',
  'gif',
  'psd',
] as const;
const IMAGE_FORMATS = new Set<string>([...SHARP_FORMATS, 'psd']);

/** A file that may fill a slot, with the record it would be rendered from. */
export interface FillCandidate {
  itemId: number;
  name: string;
  artNum: string | null;
  uploadId: number;
  format: string;
  storageKey: string;
  width: number | null;
  height: number | null;
  /** The view code its name carries (`_side` → side), or null. */
  viewCode: string | null;
  tagIds: number[];
}

export interface FilledSlot {
  slot: string;
  label: string;
  rule: FillRule;
  required: boolean;
  chosen: FillCandidate | null;
}

/** An article as a template's slots take it: what fills each slot, what is missing, why it differs. */
export interface FilledArticle {
  artNum: string;
  /** Values of the text fields (TEXT_FIELDS); null: no SKU row. */
  fields: Record<TextField, string> | null;
  candidates: FillCandidate[];
  slots: FilledSlot[];
  missing: MissingSlot[];
  warnings: ComposeWarning[];
}

/** A hand-picked file for one slot (the compose screen's swap). */
export interface SlotChoice {
  slot: string;
  itemId: number;
}

/**
 * What matching needs besides the files: the completeness views' tags, and how slots are named to
 * the reader (their language, the views' and tags' names).
 */
export interface FillContext extends SlotNaming {
  /** Tag ids that mark a file as the view of each code. */
  viewTags: Map<string, Set<number>>;
  /** The completeness view's name of each code. */
  viewNames: Map<string, string>;
  tagNames: Map<number, string>;
}

const naturalOrder = (a: FillCandidate, b: FillCandidate) =>
  a.name.localeCompare(b.name, 'en', { numeric: true, sensitivity: 'base' }) || a.itemId - b.itemId;

/** Whether a file answers a view or tag rule (nth rules are positional). */
export function matchesRule(candidate: FillCandidate, rule: FillRule, context: FillContext): boolean {
  if (rule.kind === 'tag') return candidate.tagIds.includes(rule.tagId);
  if (rule.kind !== 'view') return false;
  if (candidate.viewCode === rule.code) return true;
  const tags = context.viewTags.get(rule.code);
  return tags !== undefined && candidate.tagIds.some((tag) => tags.has(tag));
}

/**
 * The file of each slot, in page order: a view or tag slot takes the first matching file not
 * already used by a rule on this page (four `detail` cells take detail1–4), an nth slot the n-th
 * file whether used or not. A hand-picked file wins and uses nothing up, so swapping the front for
 * the side shot still leaves the side shot to the side slot.
 */
export function chooseFiles(
  slots: readonly SlotInfo[],
  candidates: readonly FillCandidate[],
  context: FillContext,
  picked: ReadonlyMap<string, FillCandidate> = new Map(),
): Map<string, FillCandidate | null> {
  const used = new Set<number>();
  const chosen = new Map<string, FillCandidate | null>();
  for (const slot of slots) {
    const own = picked.get(slot.slot);
    if (own) {
      chosen.set(slot.slot, own);
      continue;
    }
    if (slot.rule.kind === 'nth') {
      chosen.set(slot.slot, candidates[slot.rule.n - 1] ?? null);
      continue;
    }
    const rule = slot.rule;
    const match = candidates.find((c) => !used.has(c.itemId) && matchesRule(c, rule, context)) ?? null;
    if (match) used.add(match.itemId);
    chosen.set(slot.slot, match);
  }
  return chosen;
}

/**
 * How a missing slot is named to people: the completeness view's name (侧面), else the code; the tag's
 * name; the index in the reader's language (第 2 张图片, Image 2).
 */
export function viewNameOf(slot: SlotInfo, context: FillContext): string {
  return slot.rule.kind === 'nth' ? ruleSlotName(slot.rule, context) : ruleSubject(slot.rule, context);
}

export interface ArticleFillerDependencies {
  repo: MakerRepository;
  clock: Clock;
  /** Time zone whose calendar decides "today" for file validity (SPEC §4). */
  timeZone: string;
}

/**
 * Fills a template's slots from an article's files as a given user may use them. The maker's
 * plan, article view and render handler use it, and the template preview (with an article number).
 */
export class ArticleFiller {
  constructor(private readonly deps: ArticleFillerDependencies) {}

  /**
   * The matching context of a spec: the completeness views and the names of the tags it names, with
   * the reader's language for naming slots.
   */
  async contextOf(spec: TemplateSpec, lang: Language = 'zh'): Promise<FillContext> {
    const views = await this.deps.repo.completenessViews();
    const viewTags = new Map<string, Set<number>>();
    const viewNames = new Map<string, string>();
    for (const view of views) {
      if (!view.code) continue;
      if (!viewNames.has(view.code)) viewNames.set(view.code, view.name);
      if (view.tag_id !== null)
        viewTags.set(view.code, new Set([...(viewTags.get(view.code) ?? []), Number(view.tag_id)]));
    }
    const tagIds = slotKeysOf(spec).flatMap((slot) => (slot.rule.kind === 'tag' ? [slot.rule.tagId] : []));
    return { lang, viewTags, viewNames, tagNames: await this.deps.repo.tagNames([...new Set(tagIds)]) };
  }

  /**
   * The candidates of each article number (keyed lower-cased): the newest visible record of each
   * file carrying it, that the caller may download, valid today, in an image format, not an output.
   */
  async candidatesOf(auth: AuthContext, artNums: readonly string[]): Promise<Map<string, FillCandidate[]>> {
    const sources = await this.deps.repo.sourcesByArtNums([...artNums], this.viewerOf(auth));
    const candidates = await this.usable(auth, sources, true);
    const byArtNum = new Map<string, FillCandidate[]>();
    for (const candidate of candidates) {
      const key = (candidate.artNum ?? '').toLowerCase();
      byArtNum.set(key, [...(byArtNum.get(key) ?? []), candidate]);
    }
    return byArtNum;
  }

  /** Hand-picked files that are still live images the caller may download (any article's). */
  async pickable(auth: AuthContext, itemIds: readonly number[]): Promise<Map<number, FillCandidate>> {
    if (itemIds.length === 0) return new Map();
    const sources = await this.deps.repo.sourcesOf([...new Set(itemIds)], this.viewerOf(auth));
    // Only the files named themselves: a folder id among them names no file.
    const wanted = new Set(itemIds);
    const candidates = await this.usable(
      auth,
      sources.filter((s) => wanted.has(s.item_id)),
      false,
    );
    return new Map(candidates.map((c) => [c.itemId, c]));
  }

  /** One article filled for a spec; `choices` are hand-picked files by slot. */
  async fill(
    auth: AuthContext,
    spec: TemplateSpec,
    artNum: string,
    choices: readonly SlotChoice[] = [],
    context?: FillContext,
  ): Promise<FilledArticle> {
    const [candidates, picked, sku, ctx] = await Promise.all([
      this.candidatesOf(auth, [artNum]),
      this.pickable(
        auth,
        choices.map((c) => c.itemId),
      ),
      this.deps.repo.skuOf(artNum),
      context ? Promise.resolve(context) : this.contextOf(spec),
    ]);
    return this.fillFrom(spec, artNum, candidates.get(artNum.toLowerCase()) ?? [], picked, choices, sku, ctx);
  }

  /** The same with candidates and picks already read (the plan fills many articles from one query). */
  fillFrom(
    spec: TemplateSpec,
    artNum: string,
    candidates: FillCandidate[],
    pickableFiles: ReadonlyMap<number, FillCandidate>,
    choices: readonly SlotChoice[],
    sku: Partial<Record<TextField, string | null>> | undefined,
    context: FillContext,
  ): FilledArticle {
    const slots = slotKeysOf(spec, context);
    const known = new Set(slots.map((s) => s.slot));
    const warnings: ComposeWarning[] = [];
    const picked = new Map<string, FillCandidate>();
    for (const choice of choices) {
      if (!known.has(choice.slot)) continue;
      const file = pickableFiles.get(choice.itemId);
      if (file) picked.set(choice.slot, file);
      else warnings.push({ code: 'overrideUnavailable', slot: choice.slot, detail: String(choice.itemId) });
    }
    const chosen = chooseFiles(slots, candidates, context, picked);
    const missing = unfilledRequiredSlots(spec, (slot) => chosen.get(slot) != null, context).map((slot) => ({
      slot: slot.slot,
      label: slot.label,
      rule: slot.rule,
      viewName: viewNameOf(slot, context),
    }));
    return {
      artNum,
      fields: sku ? fieldsOf(artNum, sku) : null,
      candidates,
      slots: slots.map((slot) => ({
        slot: slot.slot,
        label: slot.label,
        rule: slot.rule,
        required: slot.required,
        chosen: chosen.get(slot.slot) ?? null,
      })),
      missing,
      warnings,
    };
  }

  private viewerOf(auth: AuthContext) {
    return { userId: auth.userId, view: fileScopeFilter(auth, 'view') };
  }

  /** Sources grouped by file, kept when usable, each with its best record; in natural name order. */
  private async usable(
    auth: AuthContext,
    sources: readonly DownloadSource[],
    withoutOutputs: boolean,
  ): Promise<FillCandidate[]> {
    const today = calendarDate(this.deps.clock.now(), this.deps.timeZone);
    const byItem = new Map<number, DownloadSource[]>();
    for (const source of sources) {
      if (!IMAGE_FORMATS.has(source.format.toLowerCase())) continue;
      if (!canDownload(auth, source)) continue;
      if (isExpired(source.expire_start_date, source.expire_end_date, today)) continue;
      byItem.set(source.item_id, [...(byItem.get(source.item_id) ?? []), source]);
    }
    const itemIds = [...byItem.keys()];
    const [outputs, tags] = await Promise.all([
      withoutOutputs ? this.deps.repo.outputItemIds(itemIds) : Promise.resolve(new Set<number>()),
      this.deps.repo.tagsOfItems(itemIds),
    ]);
    const candidates: FillCandidate[] = [];
    for (const [itemId, records] of byItem) {
      if (outputs.has(itemId)) continue;
      const best = bestRecord(records);
      candidates.push({
        itemId,
        name: best.item_name,
        artNum: best.art_num,
        uploadId: best.upload_id,
        format: best.format.toLowerCase(),
        storageKey: best.storage_key,
        width: best.width,
        height: best.height,
        viewCode: viewCodeOfName(best.item_name),
        tagIds: tags.get(itemId) ?? [],
      });
    }
    return candidates.sort(naturalOrder);
  }
}

const formatRank = (format: string) => {
  const rank = (SOURCE_FORMAT_ORDER as readonly string[]).indexOf(format.toLowerCase());
  return rank < 0 ? SOURCE_FORMAT_ORDER.length : rank;
};

function bestRecord(records: readonly DownloadSource[]): DownloadSource {
  return [...records].sort((a, b) => formatRank(a.format) - formatRank(b.format))[0] as DownloadSource;
}

/** The text fields of an article: its number and its SKU row's columns ('' when empty). */
export function fieldsOf(
  artNum: string,
  sku: Partial<Record<TextField, string | null>>,
): Record<TextField, string> {
  return Object.fromEntries(
    TEXT_FIELDS.map((field) => [field, field === 'artNum' ? artNum : (sku[field] ?? '')]),
  ) as Record<TextField, string>;
}
