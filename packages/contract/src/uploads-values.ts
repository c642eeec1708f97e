import { ItemType } from './items-values';

/**
 * Uploads' constants and file-name helpers without zod (the schemas are in uploads.ts, which
 * re-exports these): the upload manager on every signed-in page needs only these (issue 10 item 7).
 */

/** Formats grouped as images and videos on upload (SPEC §5), and what the pipeline previews. */
export const IMAGE_GROUP_FORMATS = [
  'jpg',
  'jpeg',
  'png',
  'psd',
  'ai',
  'indd',
  'bmp',
  'tif',
  'tiff',
  'gif',
  'webp',
] as const;
export const VIDEO_GROUP_FORMATS = ['avi', 'mp4', 'mov', 'mpeg', 'rmvb', 'mkv', 'webm'] as const;

export type FileItemType = Exclude<ItemType, typeof ItemType.folder>;
/** Groups of the batch-upload list (SPEC §3 Upload type): 1 image, 2 video, 3 other. */
export const UploadGroup = { image: 1, video: 2, other: 3 } as const;
export type UploadGroup = (typeof UploadGroup)[keyof typeof UploadGroup];
/** Item type of a format: image, video or other document. */
export function itemTypeOfFormat(format: string): FileItemType {
  const f = format.toLowerCase();
  if ((IMAGE_GROUP_FORMATS as readonly string[]).includes(f)) return ItemType.image;
  if ((VIDEO_GROUP_FORMATS as readonly string[]).includes(f)) return ItemType.video;
  return ItemType.other;
}

/** Splits `SHOE123-01.side.JPG` into base name `SHOE123-01.side` and format `jpg`. */
export function splitFileName(fileName: string): { baseName: string; format: string } {
  const dot = fileName.lastIndexOf('.');
  if (dot <= 0) return { baseName: fileName, format: '' };
  return { baseName: fileName.slice(0, dot), format: fileName.slice(dot + 1).toLowerCase() };
}

/** Status of an upload record on the server. */
export const UploadStatus = { waiting: 0, uploading: 1, done: 2, failed: 3, cancelled: 4 } as const;
export type UploadStatus = (typeof UploadStatus)[keyof typeof UploadStatus];
/** Preview state of an upload record: made by the media job, or none for formats without one. */
export const PreviewStatus = { pending: 0, ready: 1, failed: 2, damaged: 3, none: 4 } as const;
export type PreviewStatus = (typeof PreviewStatus)[keyof typeof PreviewStatus];
