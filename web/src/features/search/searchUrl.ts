import {
  type ColourTolerance,
  METADATA_FILTER_KEYS,
  type MetadataFilter,
  parseSearchContent,
  pickMetadataFilter,
  type SearchContent,
} from '@dam/contract';
import { cleanColour, isColourTolerance } from '../../ui/colours';

/** A search's colour (issue 17): files whose dominant colours are near it, within the tolerance. */
export interface SearchColour {
  colour: string;
  colourTolerance?: ColourTolerance;
}

/** What a results URL asks for: SPEC §2's search object, and a colour and a metadata filter beside it. */
export type WebSearch = SearchContent & Partial<SearchColour> & MetadataFilter;

/**
 * SPEC §2: searching opens `/` with the JSON search object and `global=true`. A colour (beyond
 * SPEC) travels beside it as `colour` and `colourTolerance`, and the metadata filter (issue 42) as
 * one parameter per field (`creator`, `capturedFrom`…), so the SPEC's object stays as it is.
 */
export function searchUrl(content: WebSearch): string {
  const { colour, colourTolerance, ...rest } = content;
  const metadata = pickMetadataFilter(rest);
  const search: Partial<WebSearch> = { ...rest };
  for (const key of METADATA_FILTER_KEYS) delete search[key];
  const params = new URLSearchParams({ search: JSON.stringify(search), global: 'true' });
  const clean = cleanColour(colour);
  if (clean) {
    params.set('colour', clean);
    if (colourTolerance) params.set('colourTolerance', colourTolerance);
  }
  for (const [key, value] of Object.entries(metadata)) params.set(key, value);
  return `/?${params.toString()}`;
}

/** The metadata filter of a results URL (empty when it has none). */
export function readMetadataFilter(params: URLSearchParams): MetadataFilter {
  return pickMetadataFilter(Object.fromEntries(METADATA_FILTER_KEYS.map((key) => [key, params.get(key)])));
}

/** The search of a results URL, or null when the URL is not one. */
export function readSearch(params: URLSearchParams): WebSearch | null {
  if (params.get('global') !== 'true') return null;
  const parsed = parseSearchContent(params.get('search'));
  if (!parsed) return null;
  const content: WebSearch = { ...parsed, ...readMetadataFilter(params) };
  const colour = cleanColour(params.get('colour'));
  if (!colour) return content;
  const tolerance = params.get('colourTolerance');
  return { ...content, colour, ...(isColourTolerance(tolerance) ? { colourTolerance: tolerance } : {}) };
}

/**
 * "A, B, C +12": the first 3 batch values and a count (SPEC §2). The search box measures how many
 * of the three fit (BatchChips); the results and tagging pages show all three.
 */
export function batchSummary(values: string[]): { shown: string[]; more: number } {
  const shown = values.slice(0, 3);
  return { shown, more: values.length - shown.length };
}
