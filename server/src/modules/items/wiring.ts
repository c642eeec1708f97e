import type { Platform } from '../../platform';
import { ObjectDeletionsRepository } from '../deletion-outbox/repository';
import { ItemPresenter } from './item-pages';
import { PersonalListsService } from './personal-lists';
import { PersonalListsRepository } from './personal-lists.repository';
import { RecycleBinService } from './recycle-bin';
import { RecycleBinRepository } from './recycle-bin.repository';
import { ItemsRepository } from './repository';
import { ItemsService } from './service';

/** Folders and files: listings and changes, the recycle bin, favourites and recently viewed. */
export function wireItems({ config, db, clock, mediaUrls, objectsFreed }: Platform) {
  const itemsRepository = new ItemsRepository(db);
  const personalListsRepository = new PersonalListsRepository(db);
  const presenter = new ItemPresenter(clock, config.BUSINESS_TIME_ZONE, mediaUrls);
  const items = new ItemsService({
    items: itemsRepository,
    lists: personalListsRepository,
    presenter,
    clock,
  });
  const recycleBin = new RecycleBinService({
    bin: new RecycleBinRepository(db, {
      items: (handle) => new ItemsRepository(handle),
      outbox: (handle) => new ObjectDeletionsRepository(handle),
    }),
    presenter,
    clock,
    objectsFreed,
  });
  const personalLists = new PersonalListsService({
    items: itemsRepository,
    lists: personalListsRepository,
    presenter,
    clock,
  });
  return { itemsRepository, items, recycleBin, personalLists, presenter };
}
