import { endpoints } from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../../http/endpoint';
import { authOf } from '../../../http/request-context';
import type { ItemsService } from '../../items/service';
import type { TagDimensionsService } from '../../tags/dimensions';

/**
 * The open API's catalogue calls (issue 15), in the open scope (the key check of
 * modules/open-api/auth has run): the tag dimensions with their tags, and the folders under a parent
 * the record's user may see. The same services as the web app's selectors answer them; the
 * operation log gets OPEN01 from the key check's onSend hook.
 */
export const openCatalogueRoutes: FastifyPluginAsync<{
  tagDimensions: TagDimensionsService;
  items: ItemsService;
}> = async (app, { tagDimensions, items }) => {
  route(app, endpoints.openTags, async (request) => {
    const dimensions = await tagDimensions.selector(authOf(request));
    return dimensions.map((dimension) => ({
      dimensionId: dimension.id,
      dimensionName: dimension.dimensionName,
      tags: dimension.tagDTOList.map((tag) => ({
        tagId: tag.id,
        name: tag.tagName,
        parentTagId: tag.parentTagId,
      })),
    }));
  });

  route(app, endpoints.openFolders, async (request) => {
    const folders = await items.folderSelector(authOf(request), request.query.parentId);
    return folders.map((folder) => ({
      id: folder.id,
      name: folder.name,
      path: folder.path,
      hasChildren: folder.hasChildren,
    }));
  });
};
