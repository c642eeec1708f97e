import { type SimilarItem, splitFileName } from '@dam/contract';
import { useEffect, useRef, useState } from 'react';
import type { PickedFile } from './engine/pickFiles';
import { type Pixels, pixelsFrom, readPixels, replacesLarger } from './engine/picturePixels';

/** A picked file added as a new version of a larger file, and whether that one stays current. */
export interface SmallerVersion {
  copy: Pixels;
  current: Pixels;
  /** Keep the larger current (the default): the copy joins as a version not shown. */
  keepCurrent: boolean;
}

/**
 * Issue 39 item 9 in the upload dialog: of the files the near-duplicate warning adds as new
 * versions ("add as new version"), those smaller (in pixels, as the browser reads them) than the
 * file they join, in one of its formats. Unless the uploader lets it replace it, the larger stays
 * current (sent as keepCurrent). `keptBehind` waits for sizes still being read, so a quick
 * "finish" cannot send a smaller copy as current.
 */
export function useSmallerVersions(
  entries: Array<{ file: PickedFile; items: SimilarItem[] }>,
  versionOf: ReadonlyMap<File, number>,
  read: (file: File, fileName: string) => Promise<Pixels | null> = readPixels,
) {
  const reading = useRef(new Map<File, Promise<Pixels | null>>());
  const [pixels, setPixels] = useState<ReadonlyMap<File, Pixels | null>>(new Map());
  /** Files whose uploader chose to let the smaller copy become current. */
  const [replacing, setReplacing] = useState<ReadonlySet<File>>(new Set());

  // Each file chosen as a new version is read once, when it is chosen.
  useEffect(() => {
    for (const { file } of entries) {
      if (!versionOf.has(file.file) || reading.current.has(file.file)) continue;
      const size = read(file.file, file.fileName).catch(() => null);
      reading.current.set(file.file, size);
      void size.then((value) => setPixels((all) => new Map(all).set(file.file, value)));
    }
  }, [entries, versionOf, read]);

  const smallerOf = (known: ReadonlyMap<File, Pixels | null>) => {
    const found = new Map<File, SmallerVersion>();
    for (const { file, items } of entries) {
      const item = items.find((candidate) => candidate.id === versionOf.get(file.file));
      const copy = known.get(file.file) ?? null;
      const current = item ? pixelsFrom(item.width, item.height) : null;
      const format = splitFileName(file.fileName).format;
      if (
        item &&
        copy &&
        current &&
        replacesLarger({ format, pixels: copy }, { formats: item.fileFormat, pixels: current })
      )
        found.set(file.file, { copy, current, keepCurrent: !replacing.has(file.file) });
    }
    return found;
  };
  const smaller = smallerOf(pixels);

  const setKeepCurrent = (file: File, keep: boolean) =>
    setReplacing((all) => {
      const next = new Set(all);
      if (keep) next.delete(file);
      else next.add(file);
      return next;
    });

  /** The files to send with keepCurrent, once every chosen file's size is read. */
  const keptBehind = async (): Promise<Set<File>> => {
    const known = new Map<File, Pixels | null>();
    for (const { file } of entries)
      if (versionOf.has(file.file))
        known.set(file.file, await (reading.current.get(file.file) ?? read(file.file, file.fileName)));
    return new Set([...smallerOf(known)].filter(([, version]) => version.keepCurrent).map(([file]) => file));
  };

  return { smaller, setKeepCurrent, keptBehind };
}
