import type { Platform } from '../../platform';
import type { ItemPresenter } from '../items/item-pages';
import { CollectionsRepository } from './repository';
import { CollectionsService } from './service';

/** Collections (issue 43) over the application's database. */
export function wireCollections({ db, clock }: Platform, { presenter }: { presenter: ItemPresenter }) {
  return { collections: new CollectionsService({ repo: new CollectionsRepository(db), presenter, clock }) };
}
