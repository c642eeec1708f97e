import type { Platform } from '../../platform';
import { itemsOn, tagsOn } from '../../repositories';
import { ChannelTagsService } from './channel-tags';
import { TagDimensionsService } from './dimensions';
import { TagExchangeService } from './exchange';
import { ItemTagsService } from './item-tags';
import { SkuTagsService } from './sku-tags';

/** Tag dimensions and tags, item, channel and SKU tags, tag workbooks. */
export function wireTags({ db, clock }: Platform) {
  const tagDeps = { tags: tagsOn(db), items: itemsOn(db), clock };
  return {
    tagDimensions: new TagDimensionsService(tagDeps),
    itemTags: new ItemTagsService(tagDeps),
    channelTags: new ChannelTagsService(tagDeps),
    skuTags: new SkuTagsService(tagDeps),
    tagExchange: new TagExchangeService(tagDeps),
  };
}
