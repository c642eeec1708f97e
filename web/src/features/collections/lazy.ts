/**
 * The collections feature's pieces other features load on demand, each with its own chunk: the
 * listings' "add to collection" dialog adds nothing to the home page's first load.
 */
import { lazyDialog } from '../../ui/lazyPage';

export const AddToCollectionDialog = lazyDialog(
  async () => (await import('./AddToCollectionDialog')).AddToCollectionDialog,
);
