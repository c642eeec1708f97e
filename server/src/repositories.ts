import type { Db } from './db/database';
import { ObjectDeletionsRepository } from './modules/deletion-outbox/repository';
import { FilesRepository } from './modules/files/repository';
import { ItemsRepository } from './modules/items/repository';
import { LogsRepository } from './modules/logs/repository';
import { TagsRepository } from './modules/tags/repository';
import { UploadsRepository } from './modules/uploads/repository';

/**
 * The repositories that work with other modules' repositories in their transactions, each made on
 * a handle with those peers handed in (issue 41 item 3): a module's repository never makes another
 * module's, so what it depends on is named here and in its constructor, and a test may hand in
 * its own.
 */
export const itemsOn = (db: Db): ItemsRepository => new ItemsRepository(db);

export const filesOn = (db: Db): FilesRepository =>
  new FilesRepository(db, {
    items: itemsOn,
    logs: (handle) => new LogsRepository(handle),
    deletions: (handle) => new ObjectDeletionsRepository(handle),
  });

export const uploadsOn = (db: Db): UploadsRepository =>
  new UploadsRepository(db, {
    items: itemsOn,
    files: filesOn,
    deletions: (handle) => new ObjectDeletionsRepository(handle),
  });

export const tagsOn = (db: Db): TagsRepository => new TagsRepository(db, itemsOn);
