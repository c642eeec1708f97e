import { z } from 'zod';
import { LIMITS } from './constants';
import { METADATA_KEYWORD_MAX } from './metadata';

export * from './metadata-search-values';

/**
 * The metadata filter of the search (issue 42 item 2), beside the colour filter: fields of the
 * embedded metadata of a file's current records. Decisions: docs/decisions.md, "Metadata search
 * (issue 42)".
 */

/** Empty means "not asked": the form sends what it has. */
const blankIsAbsent = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/** A substring, as long as the title search allows. */
const substring = z.preprocess(
  blankIsAbsent,
  z.string().trim().max(LIMITS.searchChars, { error: 'tooLong' }).optional(),
);

/** The local capture day (the camera's wall clock), `YYYY-MM-DD`. */
const day = z.preprocess(blankIsAbsent, z.iso.date().optional());

/** Spread into a request schema; check the dates' order with `refineMetadataFilter`. */
export const metadataFilterFields = {
  creator: substring,
  copyright: substring,
  camera: substring,
  /** One embedded keyword, whole, without regard to case. */
  keyword: z.preprocess(
    blankIsAbsent,
    z.string().trim().max(METADATA_KEYWORD_MAX, { error: 'tooLong' }).optional(),
  ),
  capturedFrom: day,
  capturedTo: day,
};

/** "From" after "to" is refused on `capturedTo`, as a report's period is. */
export function refineMetadataFilter(
  body: { capturedFrom?: string | undefined; capturedTo?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (body.capturedFrom && body.capturedTo && body.capturedTo < body.capturedFrom)
    ctx.addIssue({ code: 'custom', path: ['capturedTo'], message: 'periodOrder' });
}
