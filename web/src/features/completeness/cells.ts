import { type CompletenessColumn, normaliseFormat, normaliseViewCode, viewCodeOfName } from '@dam/contract';
import type { PickedFile } from '../upload';

/**
 * The file name a view's upload takes, so that the report counts it: `<artNum>_<code>.<ext>`
 * (the name's own suffix stays). A file already named for that article and view keeps its name;
 * the any-file and tag-only views keep every name.
 */
export function nameForView(fileName: string, artNum: string, column: CompletenessColumn): string {
  if (!column.code) return fileName;
  const dot = fileName.lastIndexOf('.');
  const suffix = dot > 0 ? fileName.slice(dot) : '';
  const stem = dot > 0 ? fileName.slice(0, dot) : fileName;
  const named =
    stem.toLowerCase().startsWith(artNum.toLowerCase()) &&
    viewCodeOfName(stem) === normaliseViewCode(column.code);
  return named ? fileName : `${artNum}_${column.code}${suffix}`;
}

/** The picked files, renamed for the view (and flattened out of any folder). */
export function filesForView(files: PickedFile[], artNum: string, column: CompletenessColumn): PickedFile[] {
  return files.map((f) => ({ ...f, fileName: nameForView(f.fileName, artNum, column), path: '' }));
}

/** What the file chooser offers for a format (`jpg` also takes `.jpeg`). */
export function acceptOf(format: string): string {
  const f = normaliseFormat(format);
  if (f === 'jpg') return '.jpg,.jpeg';
  if (f === 'tif') return '.tif,.tiff';
  return `.${f}`;
}

/** Whether a picked file is of the column's format. */
export function isOfFormat(fileName: string, format: string): boolean {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 && normaliseFormat(fileName.slice(dot + 1)) === normaliseFormat(format);
}
