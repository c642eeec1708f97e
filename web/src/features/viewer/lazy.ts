/**
 * The viewer feature's pieces other features load on demand, each with its own chunk: loading them here
 * adds nothing to the importer's chunk (issue 41 item 3; index.ts is the static face).
 */
import { lazyDialog } from '../../ui/lazyPage';

export const FileViewer = lazyDialog(async () => (await import('./FileViewer')).FileViewer);
