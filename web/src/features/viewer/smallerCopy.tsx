import { type FileDetail, splitFileName } from '@dam/contract';
import type { PickedFile } from '../upload';
import { type Pixels, pixelsFrom, readPixels, replacesLarger, useSmallerCopyQuestion } from '../upload';

/**
 * Issue 39 item 9: before a new version of `file` is uploaded, a picture of the file's main format
 * smaller than its current version is named, with both sizes, and the uploader chooses: keep the
 * larger current (the copy joins as a version not shown), let the copy become current, or cancel.
 * Answers the picked files to keep behind, or null when cancelled.
 */
export function useSmallerCopyCheck(file: FileDetail) {
  const ask = useSmallerCopyQuestion();
  return async (files: PickedFile[]): Promise<ReadonlySet<File> | null> => {
    const [width, height] = (file.filePx ?? '').split('*').map(Number);
    const current = pixelsFrom(width, height);
    const main = file.fileFormat?.split(',')[0] ?? null;
    if (!current || !main) return new Set();
    const smaller: Array<{ picked: PickedFile; pixels: Pixels }> = [];
    for (const picked of files) {
      const format = splitFileName(picked.fileName).format;
      const pixels = format === main ? await readPixels(picked.file, picked.fileName) : null;
      if (pixels && replacesLarger({ format, pixels }, { formats: main, pixels: current }))
        smaller.push({ picked, pixels });
    }
    if (smaller.length === 0) return new Set();
    const answer = await ask(
      smaller.map(({ picked, pixels }) => ({ name: picked.fileName, pixels })),
      current,
    );
    if (answer === null) return null;
    return answer === 'keep' ? new Set(smaller.map((s) => s.picked.file)) : new Set();
  };
}
