import {
  hasMetadataFilter,
  METADATA_FILTER_KEYS,
  type MetadataFilter,
  RankStatus,
  type SearchResult,
  SearchType,
  type searchRequestSchema,
  uniqueIgnoringCase,
} from '@dam/contract';
import type { z } from 'zod';
import type { Clock } from '../../lib/clock';
import { calendarDate } from '../../lib/clock';
import { type AuthContext, fileScopeFilter } from '../access/access';
import type { Viewer } from '../access/visibility.repository';
import { colourFilterOf } from '../items/colour-filter';
import { presentItem } from '../items/presenter';
import type { MediaUrls } from '../media/urls';
import { type SearchMatch, type SearchRepository, typesOfScope } from './repository';

type ParsedSearch = z.output<typeof searchRequestSchema>;

/** Global search over everything the caller may see (SPEC §2 Search bar, §7 global/search). */
export class SearchService {
  constructor(
    private readonly repo: SearchRepository,
    private readonly clock: Clock,
    private readonly timeZone: string,
    private readonly mediaUrls: MediaUrls,
  ) {}

  async search(auth: AuthContext, request: ParsedSearch): Promise<SearchResult> {
    const viewer: Viewer = { userId: auth.userId, view: fileScopeFilter(auth, 'view') };
    const match = matchOf(request);
    const colour = request.colour ? colourFilterOf(request.colour, request.colourTolerance) : undefined;
    const metadata = metadataFilterOf(request);
    const types = typesOfScope(request.fileType);
    const order =
      request.rankStatus === RankStatus.up
        ? 'nameAsc'
        : request.rankStatus === RankStatus.down
          ? 'nameDesc'
          : 'normal';
    // The values of a batch that found nothing, so the user sees what is missing (first page only).
    // Asked beside the page, not after it: on PostgreSQL the two run on two connections at once
    // (a 10,000-value batch costs two probes of the whole list; issue 12 goal 3).
    const batch = match.kind === 'artNumIn' || match.kind === 'nameIn' ? match : null;
    const [rows, found] = await Promise.all([
      this.repo.search(
        match,
        viewer,
        types,
        order,
        request.pageSize + 1,
        (request.pageNo - 1) * request.pageSize,
        colour,
        metadata,
        request.reviewState,
      ),
      request.pageNo === 1 && batch
        ? this.repo.matchedValues(batch, viewer, types, colour, metadata, request.reviewState)
        : null,
    ]);
    const unmatched = batch && found ? batch.values.filter((value) => !found.has(value.toLowerCase())) : [];
    const today = calendarDate(this.clock.now(), this.timeZone);
    const list = await Promise.all(
      rows.slice(0, request.pageSize).map(async (row) => ({
        ...presentItem(row, auth, today),
        compactUrl: await this.mediaUrls.urlOf(row.cover_key, auth),
      })),
    );
    return {
      list,
      pageNo: request.pageNo,
      pageSize: request.pageSize,
      hasMore: rows.length > request.pageSize,
      unmatched,
    };
  }
}

/** The request's metadata fields, undefined when none is asked. */
function metadataFilterOf(request: ParsedSearch): MetadataFilter | undefined {
  const filter: MetadataFilter = {};
  for (const key of METADATA_FILTER_KEYS) if (request[key]) filter[key] = request[key];
  return hasMetadataFilter(filter) ? filter : undefined;
}

function matchOf(request: ParsedSearch): SearchMatch {
  // A title or article-number search may be a colour, a metadata or a review-state filter alone (the contract
  // allows no other empty one).
  const single = request.searchType === SearchType.title || request.searchType === SearchType.artNum;
  if (single && !request.query && (request.colour || metadataFilterOf(request) || request.reviewState))
    return { kind: 'any' };
  switch (request.searchType) {
    case SearchType.title:
      return { kind: 'nameContains', text: request.query ?? '' };
    case SearchType.artNum:
      return { kind: 'artNumContains', text: request.query ?? '' };
    case SearchType.batchArtNums:
      return { kind: 'artNumIn', values: uniqueIgnoringCase(request.artNumList ?? []) };
    default:
      return { kind: 'nameIn', values: uniqueIgnoringCase(request.nameList ?? []) };
  }
}
