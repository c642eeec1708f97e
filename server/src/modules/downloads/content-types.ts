/** How a downloaded file is stored in a zip and labelled when sent alone, by its format. */

/** Already compressed: stored as they are, deflating them would only cost CPU. */
export const STORE_ONLY = new Set([
  'jpg',
  'jpeg',
  'png',
  'gif',
  'webp',
  'mp4',
  'mov',
  'avi',
  'mkv',
  'webm',
  'rmvb',
  'mpeg',
  'zip',
  'rar',
  '7z',
  'gz',
  'pdf',
  'heic',
  'avif',
]);
export const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  pdf: 'application/pdf',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  psd: 'image/vnd.adobe.photoshop',
};
