/**
 * The download feature's pieces other features load on demand, each with its own chunk: loading them here
 * adds nothing to the importer's chunk (issue 41 item 3; index.ts is the static face).
 */
import { lazyDialog } from '../../ui/lazyPage';

export const DownloadDialog = lazyDialog(async () => (await import('./DownloadDialog')).DownloadDialog);

export const CollectionDownloadDialog = lazyDialog(
  async () => (await import('./CollectionDownloadDialog')).CollectionDownloadDialog,
);
