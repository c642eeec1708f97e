import { endpoints } from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint';
import { authOf } from '../../http/request-context';
import type { MetadataMappingService } from './service';

/** Keyword → tag mapping (issue 42): the rules (function code 4), their findings. */
export const metadataMappingRoutes: FastifyPluginAsync<{ mapping: MetadataMappingService }> = async (
  app,
  { mapping },
) => {
  route(app, endpoints.metadataTagRules, async (request) => mapping.rules(authOf(request)));
  route(app, endpoints.saveMetadataTagRule, async (request) =>
    mapping.saveRule(authOf(request), request.body),
  );
  route(app, endpoints.deleteMetadataTagRule, async (request) => {
    await mapping.deleteRule(authOf(request), request.body.id);
    return null;
  });
  route(app, endpoints.mappingFindings, async (request) => mapping.findings(authOf(request), request.query));
  route(app, endpoints.fileMappingFindings, async (request) =>
    mapping.ofFile(authOf(request), Number(request.query.folderDataId)),
  );
};
