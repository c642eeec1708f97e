import { endpoints } from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint';
import { authOf } from '../../http/request-context';
import type { MetadataService } from './service';

/** Embedded metadata (issue 42) in the main API: the viewer's "metadata" section. */
export const metadataRoutes: FastifyPluginAsync<{ metadata: MetadataService }> = async (
  app,
  { metadata },
) => {
  route(app, endpoints.fileMetadata, async (request) =>
    metadata.ofFile(authOf(request), Number(request.query.folderDataId)),
  );
};
