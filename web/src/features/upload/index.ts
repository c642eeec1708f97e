/**
 * The upload feature's public face: other features import only this file (or ./lazy.ts for what they
 * load on demand); everything else in the folder is its own (issue 41 item 3, guard-rails test).
 */
// The batch upload dialog itself is loaded on demand (./lazy.ts): the home page imports this file.
export type { UploadTarget } from './BatchUploadDialog';
export { type PickedFile, pickFiles } from './engine/pickFiles';
export { type Pixels, pixelsFrom, readPixels, replacesLarger } from './engine/picturePixels';
export { problemText } from './problemText';
export { useSmallerCopyQuestion } from './smallerCopyQuestion';
export { UploadButton } from './UploadButton';
export { useUploadManager } from './UploadProvider';
