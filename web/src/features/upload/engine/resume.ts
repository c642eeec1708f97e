import { type UploadRecord, UploadStatus } from '@dam/contract';

export interface RepickMatch {
  record: UploadRecord;
  file: File;
}

/**
 * Pairs files the user picked again with uploads a closed page left unfinished, so they resume
 * from the parts already stored. The browser cannot reopen a file by itself; size and the
 * last-modified time the browser reported decide (the name too when no time was recorded, and
 * first when several records fit), and each record takes at most one file.
 */
export function matchRepickedFiles(
  files: File[],
  records: UploadRecord[],
): { matched: RepickMatch[]; unmatched: File[] } {
  const open = [...records];
  const matched: RepickMatch[] = [];
  const unmatched: File[] = [];
  const fits = (record: UploadRecord, file: File) =>
    record.fileSize === file.size &&
    (record.fileInfo === null ? record.fileName === file.name : record.fileInfo === file.lastModified);
  for (const file of files) {
    const candidates = open.filter((record) => fits(record, file));
    const record = candidates.find((r) => r.fileName === file.name) ?? candidates[0];
    if (!record) {
      unmatched.push(file);
      continue;
    }
    open.splice(open.indexOf(record), 1);
    matched.push({ record, file });
  }
  return { matched, unmatched };
}

/**
 * The unfinished records that really stopped: not one this page took on (running, or finished or
 * cancelled a moment ago and not yet re-read from the server).
 */
export function interruptedAmong(records: UploadRecord[], taken: (id: number) => boolean): UploadRecord[] {
  return records.filter(
    (record) =>
      !taken(record.id) &&
      (record.status === UploadStatus.waiting || record.status === UploadStatus.uploading),
  );
}
