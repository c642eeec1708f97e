import { FILE_NAME_MAX_CHARS, LIMITS, type NameProblem, nameProblem, UploadGroup } from '@dam/contract';
import type { DroppedFile } from './droppedFiles';

export interface PickedFile {
  file: File;
  fileName: string;
  /** Folder inside the upload, for folder uploads: `Season/Running`. */
  path: string;
  size: number;
}

export type PickProblem =
  | { kind: 'tooMany' }
  | { kind: 'tooLarge'; fileName: string }
  /** The file's name, or one of the folders of a folder upload, breaks the name rule (issue 9). */
  | { kind: 'badName'; fileName: string; problem: NameProblem }
  | { kind: 'sameFile'; fileName: string };

/** Files the operating system leaves behind: `.DS_Store`, `._x`, `Thumbs.db`/`Thumb.db` (SPEC §5). */
export function isSystemFile(name: string): boolean {
  return (
    /^\.[^.]*$/.test(name) || name.startsWith('._') || /^thumbs?\.db$/i.test(name) || name === 'desktop.ini'
  );
}

/**
 * Applies SPEC §5 file-picking rules; returns the files to upload or the first problem. Files of a
 * folder picked or dropped keep the folders they sat in (`webkitRelativePath`, or a drop's path).
 */
export function pickFiles(
  files: readonly (File | DroppedFile)[],
  existing: PickedFile[] = [],
): { files: PickedFile[] } | { problem: PickProblem } {
  const picked: PickedFile[] = [];
  for (const one of files) {
    const dropped = 'relativePath' in one ? one : null;
    const file = dropped ? dropped.file : (one as File);
    if (isSystemFile(file.name)) continue;
    const relative = dropped
      ? dropped.relativePath
      : ((file as File & { webkitRelativePath?: string }).webkitRelativePath ?? '');
    const folders = relative.split('/').slice(0, -1);
    picked.push({ file, fileName: file.name, path: folders.join('/'), size: file.size });
  }
  const all = [...existing, ...picked];
  if (all.length > LIMITS.filesPerSelection) return { problem: { kind: 'tooMany' } };
  const seen = new Set<string>();
  for (const entry of all) {
    if (entry.size > LIMITS.singleFileBytes)
      return { problem: { kind: 'tooLarge', fileName: entry.fileName } };
    const problem = nameProblemOf(entry);
    if (problem) return { problem };
    const key = `${entry.path}/${entry.fileName}`.toLowerCase();
    if (seen.has(key)) return { problem: { kind: 'sameFile', fileName: entry.fileName } };
    seen.add(key);
  }
  return { files: all };
}

/** The contract's name rule on a file's name and on each folder of its path. */
function nameProblemOf(entry: PickedFile): PickProblem | null {
  const shown = entry.path ? `${entry.path}/${entry.fileName}` : entry.fileName;
  const fileProblem = nameProblem(entry.fileName, FILE_NAME_MAX_CHARS);
  if (fileProblem) return { kind: 'badName', fileName: shown, problem: fileProblem };
  for (const folder of entry.path ? entry.path.split('/') : []) {
    const problem = nameProblem(folder, LIMITS.folderNameChars);
    if (problem) return { kind: 'badName', fileName: shown, problem };
  }
  return null;
}

const IMAGE_SUFFIXES = ['jpg', 'png', 'psd', 'ai', 'indd', 'bmp'];
const VIDEO_SUFFIXES = ['avi', 'mp4'];

/** Upload group of SPEC §3/§5 by suffix. */
export function groupOf(fileName: string): UploadGroup {
  const suffix = fileName.slice(fileName.lastIndexOf('.') + 1).toLowerCase();
  if (IMAGE_SUFFIXES.includes(suffix) || suffix === 'jpeg' || suffix === 'tif' || suffix === 'tiff')
    return UploadGroup.image;
  if (VIDEO_SUFFIXES.includes(suffix) || suffix === 'mov') return UploadGroup.video;
  return UploadGroup.other;
}

/** The name without its suffix: `SHOE1-01_side.jpg` → `SHOE1-01_side`. */
export function baseNameOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(0, dot) : fileName;
}

/** Whether any picked file would be renamed by the fixed-name rule of SPEC §5. */
export function needsRename(files: PickedFile[], fixedName: string): boolean {
  return files.some((f) => baseNameOf(f.fileName) !== fixedName || f.path !== '');
}

/**
 * SPEC §5 fixed current file name (uploading a new version): every file takes that name and
 * keeps its own suffix. Two files left with the same name and suffix are the "same file" error.
 */
export function applyFixedName(
  files: PickedFile[],
  fixedName: string,
): { files: PickedFile[] } | { problem: PickProblem } {
  const seen = new Set<string>();
  const renamed: PickedFile[] = [];
  for (const f of files) {
    const dot = f.fileName.lastIndexOf('.');
    const fileName = dot > 0 ? `${fixedName}${f.fileName.slice(dot)}` : fixedName;
    const key = fileName.toLowerCase();
    if (seen.has(key)) return { problem: { kind: 'sameFile', fileName } };
    seen.add(key);
    renamed.push({ ...f, fileName, path: '' });
  }
  return { files: renamed };
}
