import { useEffect, useMemo, useRef, useState } from 'react';
import { useArtNumsInNames, useSkuCheck } from './api';
import type { PickedFile } from './engine/pickFiles';
import { keyOf } from './UploadGroups';

/**
 * The article-number fields of the batch upload dialog: pre-filled from the file names (the
 * server's ART_NUM_PATTERN) unless typed in, and checked against the SKU data once typing pauses.
 */
export function useBatchArtNums(initial: PickedFile[], files: PickedFile[], defaultArtNum?: string) {
  const [artNums, setArtNums] = useState<Record<string, string>>(() =>
    Object.fromEntries(initial.map((f) => [`${f.path}/${f.fileName}`, defaultArtNum ?? ''])),
  );
  /** Fields the user typed in: the names' article numbers never overwrite them. */
  const touched = useRef(new Set<string>());

  // The article numbers in the file names (the server's ART_NUM_PATTERN) pre-fill the fields.
  const names = useMemo(() => files.map((f) => f.fileName), [files]);
  const fromNames = useArtNumsInNames(names);
  // Until the names are read, starting would send the files without their article numbers: the
  // buttons wait for the answer (a failed answer leaves the fields as they are, to be typed in).
  const readingNames = names.length > 0 && fromNames.isFetching;
  useEffect(() => {
    const list = fromNames.data?.list;
    if (!list) return;
    setArtNums((all) => {
      const next = { ...all };
      files.forEach((f, index) => {
        const found = list[index]?.fileName === f.fileName ? list[index]?.artNumList[0] : undefined;
        if (found && !touched.current.has(keyOf(f)) && !next[keyOf(f)]) next[keyOf(f)] = found;
      });
      return next;
    });
  }, [fromNames.data, files]);

  // Every value in the fields, checked against the SKU data once typing pauses (SPEC §9: 500 ms).
  const typed = useMemo(
    () => [...new Set(files.map((f) => artNums[keyOf(f)]?.trim() ?? '').filter(Boolean))].sort(),
    [files, artNums],
  );
  const [checked, setChecked] = useState<string[]>([]);
  useEffect(() => {
    const timer = setTimeout(() => setChecked(typed), 500);
    return () => clearTimeout(timer);
  }, [typed]);
  const check = useSkuCheck(checked);
  const unknown = new Set(check.data?.unknownArtNumList.map((a) => a.toLowerCase()) ?? []);
  const isUnknown = (f: PickedFile) => {
    const value = artNums[keyOf(f)]?.trim().toLowerCase();
    return Boolean(value) && unknown.has(value as string);
  };
  const unknownFiles = files.filter(isUnknown);

  return {
    artNums,
    readingNames,
    isUnknown,
    unknownFiles,
    /** The user typed in a field. */
    type: (f: PickedFile, value: string) => {
      touched.current.add(keyOf(f));
      setArtNums((all) => ({ ...all, [keyOf(f)]: value }));
    },
    /** Files added to the batch start with the default article number; fields kept as they are. */
    add: (added: PickedFile[]) =>
      setArtNums((all) => ({
        ...Object.fromEntries(added.map((f) => [keyOf(f), defaultArtNum ?? ''])),
        ...all,
      })),
    /** "Upload and continue": the next batch starts with empty fields. */
    clear: () => {
      setArtNums({});
      touched.current.clear();
    },
  };
}
