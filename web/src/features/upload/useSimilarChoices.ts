import { useState } from 'react';
import type { PickedFile } from './engine/pickFiles';
import { useSimilarCheck } from './useSimilarCheck';
import { useSmallerVersions } from './useSmallerVersions';

/**
 * Pictures that look like files already in the archive (issue 17): hashed here as they are picked,
 * checked in the background; never waited for. A new version of a file is not checked. Holds the
 * file each picked file is added to as a new version, and which of those are smaller.
 */
export function useSimilarChoices(files: PickedFile[], fixedName?: string) {
  const similar = useSimilarCheck(files, { enabled: fixedName === undefined });
  const similarEntries = files.flatMap((f) => {
    const items = similar.matches.get(f.file);
    return items ? [{ file: f, items }] : [];
  });
  /** The file each picked file is added to as a new version ("add as new version" in the warning). */
  const [versionOf, setVersionOf] = useState<ReadonlyMap<File, number>>(new Map());
  const chooseVersionOf = (f: PickedFile, itemId: number | null) =>
    setVersionOf((all) => {
      const next = new Map(all);
      if (itemId === null) next.delete(f.file);
      else next.set(f.file, itemId);
      return next;
    });
  /** Those smaller than the file they join: the larger stays current unless the user says not. */
  const smaller = useSmallerVersions(similarEntries, versionOf);
  return {
    similar,
    similarEntries,
    versionOf,
    chooseVersionOf,
    smaller,
    clearVersions: () => setVersionOf(new Map()),
  };
}
