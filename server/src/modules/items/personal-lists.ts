import type { PagedItems } from '@dam/contract';
import { AppError } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import type { AuthContext } from '../access/access';
import { type ItemPresenter, type Paging, pageOf, pageWindow, viewerOf } from './item-pages';
import type { PersonalListsRepository } from './personal-lists.repository';
import { canSee, requireLiveItem } from './policy';
import type { ItemsRepository } from './repository';

export interface PersonalListsDependencies {
  items: ItemsRepository;
  lists: PersonalListsRepository;
  presenter: ItemPresenter;
  clock: Clock;
}

/** The caller's own lists (SPEC §7): favourites, recently viewed, and the files they uploaded. */
export class PersonalListsService {
  constructor(private readonly deps: PersonalListsDependencies) {}

  async collect(auth: AuthContext, id: number): Promise<void> {
    requireLiveItem(auth, await this.deps.items.findById(id, auth.userId));
    await this.deps.lists.addCollect(auth.userId, id, this.deps.clock.now());
  }

  async cancelCollect(auth: AuthContext, id: number): Promise<void> {
    const row = await this.deps.items.findById(id, auth.userId);
    if (!row || !canSee(auth, row)) throw new AppError('SE_404');
    await this.deps.lists.removeCollect(auth.userId, id);
  }

  async listCollected(auth: AuthContext, paging: Paging): Promise<PagedItems> {
    const { limit, offset } = pageWindow(paging);
    const rows = await this.deps.lists.listCollected(viewerOf(auth), limit, offset);
    return pageOf(await this.deps.presenter.present(rows, auth), paging);
  }

  async listRecent(auth: AuthContext, paging: Paging): Promise<PagedItems> {
    const { limit, offset } = pageWindow(paging);
    const rows = await this.deps.lists.listRecent(viewerOf(auth), limit, offset);
    return pageOf(await this.deps.presenter.present(rows, auth), paging);
  }

  async listMyUploads(auth: AuthContext, paging: Paging): Promise<PagedItems> {
    const { limit, offset } = pageWindow(paging);
    const rows = await this.deps.lists.listOwnedFiles(auth.userId, limit, offset);
    return pageOf(await this.deps.presenter.present(rows, auth), paging);
  }
}
