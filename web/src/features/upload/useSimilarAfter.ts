import { SIMILAR_CHECK_MAX_FILES, type SimilarAfterResult } from '@dam/contract';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { call } from '../../api/client';
import { endpoints } from '../../api/endpoints';
import type { FinishedUpload } from '../../upload/manager';

/** The panel asks again this often while a fingerprint is still being made… */
export const SIMILAR_AFTER_POLL_MS = 5_000;
/** …for at most this long after the upload finished. */
export const SIMILAR_AFTER_MAX_MS = 10 * 60_000;

/** What the panel shows under one finished upload: its look-alikes and what may be done about it. */
export type SimilarAfterMatch = Omit<SimilarAfterResult[number], 'id' | 'fingerprint'>;

const askServer = (idList: number[]): Promise<SimilarAfterResult> =>
  call(endpoints.similarAfterUpload, { body: { idList }, silent: true });

/**
 * The upload panel's near-duplicate check (issue 17, plan §5.2): the finished uploads of this page
 * that the dialog did not compare (not hashable in the browser, or not yet hashed when the upload
 * started) are compared with the server's own fingerprints, asked again every 5 s while any is
 * still pending and at most 10 minutes after it finished. Silent: a failure shows nothing.
 */
export function useSimilarAfter(
  finished: FinishedUpload[],
  { ask = askServer }: { ask?: (idList: number[]) => Promise<SimilarAfterResult> } = {},
) {
  const [dismissed, setDismissed] = useState<ReadonlySet<number>>(new Set());
  const asked = finished.filter((f) => !f.similarChecked).slice(-SIMILAR_CHECK_MAX_FILES);
  const ids = asked.map((f) => f.id);
  const finishedAt = new Map(asked.map((f) => [f.id, f.finishedAt]));
  const query = useQuery({
    queryKey: ['similar-after', ids],
    queryFn: () => ask(ids),
    enabled: ids.length > 0,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    placeholderData: (previous) => previous,
    refetchInterval: (current) =>
      current.state.data?.some(
        (entry) =>
          entry.fingerprint === 'pending' &&
          Date.now() - (finishedAt.get(entry.id) ?? 0) < SIMILAR_AFTER_MAX_MS,
      )
        ? SIMILAR_AFTER_POLL_MS
        : false,
  });
  const data = query.data;
  const matches = useMemo(() => {
    const found = new Map<number, SimilarAfterMatch>();
    for (const { id, fingerprint: _, ...match } of data ?? [])
      if (match.items.length > 0 && !dismissed.has(id)) found.set(id, match);
    return found;
  }, [data, dismissed]);
  const dismiss = (id: number) => setDismissed((all) => new Set(all).add(id));
  return { matches, dismiss };
}
