import { CHANNEL_TAGS_PER_ITEM_MAX, type ChannelTag } from '@dam/contract';
import { isUniqueViolation } from '../../db/sql-helpers';
import { AppError, coded } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import type { AuthContext } from '../access/access';
import { requireLiveItem } from '../items/policy';
import type { ItemsRepository } from '../items/repository';
import type { ChannelTagRow, TagsRepository } from './repository';

/**
 * Channel tags: free names of the channels a file is published on (SPEC §7 add-channel-tag,
 * channel-tag, delete-channel-tag), seen by whoever sees the file, changed by whoever may edit it.
 */
export class ChannelTagsService {
  constructor(private readonly deps: { tags: TagsRepository; items: ItemsRepository; clock: Clock }) {}

  private get repo() {
    return this.deps.tags;
  }

  private channelTag(row: ChannelTagRow): ChannelTag {
    return {
      id: row.id,
      channelName: row.channel_name,
      folderDataId: row.item_id,
      createdAt: row.created_at.toISOString(),
    };
  }

  async listChannelTags(auth: AuthContext, itemId: number): Promise<ChannelTag[]> {
    requireLiveItem(auth, await this.deps.items.findById(itemId, auth.userId));
    return (await this.repo.channelTags(itemId)).map((row) => this.channelTag(row));
  }

  async addChannelTag(auth: AuthContext, itemId: number, channelName: string): Promise<ChannelTag> {
    try {
      return await this.repo.transaction(async (repo, items) => {
        requireLiveItem(auth, await items.findById(itemId, auth.userId), 'edit');
        await repo.lockItem(itemId);
        const existing = await repo.channelTags(itemId);
        if (existing.some((c) => c.channel_name.toLowerCase() === channelName.toLowerCase()))
          throw coded('SETG_12', { value: channelName });
        if (existing.length >= CHANNEL_TAGS_PER_ITEM_MAX)
          throw coded('SETG_13', { max: CHANNEL_TAGS_PER_ITEM_MAX });
        const row = await repo.insertChannelTag(itemId, channelName, auth.userId, this.deps.clock.now());
        return this.channelTag(row);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw coded('SETG_12', { value: channelName });
      throw error;
    }
  }

  async deleteChannelTag(auth: AuthContext, id: number): Promise<void> {
    await this.repo.transaction(async (repo, items) => {
      const row = await repo.findChannelTag(id);
      if (!row) throw new AppError('SE_404');
      requireLiveItem(auth, await items.findById(row.item_id, auth.userId), 'edit');
      await repo.deleteChannelTag(id);
    });
  }
}
