import {
  SIMILAR_CHECK_MAX_FILES,
  type SimilarCheckRequest,
  type SimilarCheckResult,
  type SimilarItem,
} from '@dam/contract';
import { useEffect, useMemo, useRef, useState } from 'react';
import { call } from '../../api/client';
import { endpoints } from '../../api/endpoints';
import { type BrowserFingerprint, canFingerprint, FingerprintPool } from './engine/fingerprints';
import type { PickedFile } from './engine/pickFiles';

/** Checks wait this long after the last fingerprint came in (plan §5.1, as the SKU check)… */
export const SIMILAR_CHECK_DEBOUNCE_MS = 500;
/** …but a long run of hashing still sends what it has this often. */
export const SIMILAR_CHECK_MAX_WAIT_MS = 3_000;
/** A 429 without Retry-After is asked again after 2 s, 4 s, 8 s… at most a minute apart. */
const REFUSED_BACK_OFF_MS = 2_000;
const REFUSED_BACK_OFF_MAX_MS = 60_000;

export interface SimilarCheckDeps {
  /** One file's fingerprint (default: the worker pool of the dialog). */
  fingerprint: (file: File) => Promise<BrowserFingerprint>;
  /** The server's check of up to 200 fingerprints (default: similarCheck, silent). */
  check: (files: SimilarCheckRequest['files']) => Promise<SimilarCheckResult>;
}

export interface SimilarCheck {
  /** The files with matches among what the caller may see, and the matches. */
  matches: Map<File, SimilarItem[]>;
  /** Files the browser hashes, and how many of them are done. */
  hashed: { done: number; total: number };
  /**
   * Files settled here: the server answered their check, or the browser found them not comparable
   * (too small, blank, animated). The others are compared after upload (plan §5.2).
   */
  compared: Set<File>;
}

/** Browser fingerprints that the server's own would agree with: nothing to compare after upload. */
const NOT_COMPARABLE = new Set<BrowserFingerprint['status']>(['tooSmall', 'blank', 'animated']);

const checkOnServer: SimilarCheckDeps['check'] = (files) =>
  call(endpoints.similarCheck, { body: { files }, silent: true });

/**
 * The upload dialog's near-duplicate check (issue 17, plan §5.1): each picked picture is hashed in
 * the browser as soon as it is picked; the fingerprints are sent in batches of at most 200 once
 * hashing pauses for 500 ms. It never holds up the upload and says nothing when it fails: a file
 * it could not check is compared after upload, with the server's own fingerprint. A check refused
 * with 429 is sent again after its Retry-After (issue 39 item 7).
 */
export function useSimilarCheck(
  files: PickedFile[],
  { enabled = true, deps }: { enabled?: boolean; deps?: Partial<SimilarCheckDeps> } = {},
): SimilarCheck {
  const pool = useRef<FingerprintPool | null>(null);
  const given = useRef(deps);
  given.current = deps;
  /** The request key of each file: short, unique in the dialog, whatever the file's name. */
  const keys = useRef(new WeakMap<File, string>());
  const nextKey = useRef(1);
  const started = useRef(new Set<string>());
  const sent = useRef(new Set<string>());
  /** When the oldest fingerprint not yet sent came in. */
  const waitingSince = useRef<number | null>(null);
  /** No check before this: the server refused one with 429 and said when to come back. */
  const pausedUntil = useRef(0);
  const refusals = useRef(0);
  /** Grows when a batch is refused: its fingerprints are due again once the pause is over. */
  const [retries, setRetries] = useState(0);
  const [prints, setPrints] = useState<Record<string, BrowserFingerprint>>({});
  const [found, setFound] = useState<Record<string, SimilarItem[]>>({});
  const [answered, setAnswered] = useState<Record<string, true>>({});

  const keyOf = (file: File): string => {
    let key = keys.current.get(file);
    if (!key) {
      key = `f${nextKey.current++}`;
      keys.current.set(file, key);
    }
    return key;
  };

  useEffect(
    () => () => {
      pool.current?.close();
      pool.current = null;
    },
    [],
  );

  // Hash every new picture as soon as it is picked.
  useEffect(() => {
    if (!enabled) return;
    for (const picked of files) {
      if (!canFingerprint(picked.fileName, picked.size)) continue;
      const key = keyOf(picked.file);
      if (started.current.has(key)) continue;
      started.current.add(key);
      const fingerprint =
        given.current?.fingerprint ??
        ((file: File) => {
          pool.current ??= new FingerprintPool();
          return pool.current.fingerprint(file);
        });
      void fingerprint(picked.file)
        .catch((): BrowserFingerprint => ({ status: 'failed' }))
        .then((result) => setPrints((all) => ({ ...all, [key]: result })));
    }
  });

  // Send the fingerprints that came in, once hashing pauses, in batches of at most 200.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `retries` re-sends refused fingerprints.
  useEffect(() => {
    if (!enabled) return;
    const inDialog = new Set(files.map((picked) => keys.current.get(picked.file)));
    const due = Object.entries(prints).flatMap(([key, print]) =>
      print.status === 'ready' && !sent.current.has(key) && inDialog.has(key)
        ? [{ key, hash: print.hash, colours: print.colours }]
        : [],
    );
    if (due.length === 0) {
      waitingSince.current = null;
      return;
    }
    waitingSince.current ??= Date.now();
    const delay = Math.max(
      Math.min(
        SIMILAR_CHECK_DEBOUNCE_MS,
        Math.max(0, waitingSince.current + SIMILAR_CHECK_MAX_WAIT_MS - Date.now()),
      ),
      pausedUntil.current - Date.now(),
    );
    const timer = setTimeout(() => {
      waitingSince.current = null;
      const check = given.current?.check ?? checkOnServer;
      for (let at = 0; at < due.length; at += SIMILAR_CHECK_MAX_FILES) {
        const batch = due.slice(at, at + SIMILAR_CHECK_MAX_FILES);
        for (const entry of batch) sent.current.add(entry.key);
        check(batch).then(
          (result) => {
            refusals.current = 0;
            setAnswered((all) => ({
              ...all,
              ...Object.fromEntries(batch.map((entry) => [entry.key, true as const])),
            }));
            const withMatches = result.list.filter((entry) => entry.items.length > 0);
            if (withMatches.length > 0)
              setFound((all) => ({
                ...all,
                ...Object.fromEntries(withMatches.map((entry) => [entry.key, entry.items])),
              }));
          },
          (failure: { status?: number; retryAfterMs?: number } | undefined) => {
            // Silent: a failed check never bothers the upload (the panel compares after it). A 429
            // is the person's budget running out for a while: sent again once it is back.
            if (failure?.status !== 429) return;
            refusals.current += 1;
            const wait =
              failure.retryAfterMs ??
              Math.min(REFUSED_BACK_OFF_MAX_MS, REFUSED_BACK_OFF_MS * 2 ** (refusals.current - 1));
            pausedUntil.current = Math.max(pausedUntil.current, Date.now() + wait);
            for (const entry of batch) sent.current.delete(entry.key);
            setRetries((count) => count + 1);
          },
        );
      }
    }, delay);
    return () => clearTimeout(timer);
  }, [enabled, files, prints, retries]);

  return useMemo(() => {
    const matches = new Map<File, SimilarItem[]>();
    const compared = new Set<File>();
    let done = 0;
    let total = 0;
    if (enabled)
      for (const picked of files) {
        const key = keys.current.get(picked.file);
        if (!canFingerprint(picked.fileName, picked.size)) continue;
        total += 1;
        if (key && prints[key]) done += 1;
        const print = key ? prints[key] : undefined;
        if (key && (answered[key] || (print && NOT_COMPARABLE.has(print.status)))) compared.add(picked.file);
        const items = key ? found[key] : undefined;
        if (items) matches.set(picked.file, items);
      }
    return { matches, hashed: { done, total }, compared };
  }, [enabled, files, prints, found, answered]);
}
