import type { SimilarAfterResult } from '@dam/contract';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { call } from '../../api/client';
import { endpoints } from '../../api/endpoints';
import type { FinishedUpload } from './engine/manager';
import {
  type SimilarAfterAnswer,
  SimilarAfterQueue,
  type SimilarAfterQueueDeps,
} from './engine/similarAfterQueue';

/** What the panel shows under one finished upload: its look-alikes and what may be done about it. */
export type SimilarAfterMatch = SimilarAfterAnswer;

const askServer = (idList: number[]): Promise<SimilarAfterResult> =>
  call(endpoints.similarAfterUpload, { body: { idList }, silent: true });

/**
 * The upload panel's near-duplicate check (issue 17, plan §5.2; issue 39 item 7): the finished
 * uploads of this page that the dialog did not compare (not hashable in the browser, or not yet
 * hashed when the upload started) are compared with the server's own fingerprints by a
 * SimilarAfterQueue (batched, paced, a 429 waited out). `notDone` are the uploads whose check
 * failed past its tries: the panel says so rather than nothing.
 */
export function useSimilarAfter(finished: FinishedUpload[], deps: Partial<SimilarAfterQueueDeps> = {}) {
  const given = useRef(deps);
  given.current = deps;
  const [queue] = useState(
    () =>
      new SimilarAfterQueue({
        ask: (ids) => (given.current.ask ?? askServer)(ids),
        ...(deps.clock ? { clock: deps.clock } : {}),
      }),
  );
  useEffect(() => () => queue.close(), [queue]);
  useEffect(() => {
    queue.add(finished.filter((upload) => !upload.similarChecked));
  }, [queue, finished]);
  const [dismissed, setDismissed] = useState<ReadonlySet<number>>(new Set());
  const states = useSyncExternalStore(
    (listener) => queue.subscribe(listener),
    () => queue.version,
  );
  const { matches, notDone } = useMemo(() => {
    void states;
    const found = new Map<number, SimilarAfterMatch>();
    const failed = new Set<number>();
    for (const [id, state] of queue.states()) {
      if (state.status === 'notDone') failed.add(id);
      else if (state.status === 'done' && state.answer && state.answer.items.length > 0 && !dismissed.has(id))
        found.set(id, state.answer);
    }
    return { matches: found, notDone: failed };
  }, [queue, states, dismissed]);
  const dismiss = (id: number) => setDismissed((all) => new Set(all).add(id));
  return { matches, notDone, dismiss };
}
