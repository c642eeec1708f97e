import { z } from 'zod';
import {
  deleteMetadataTagRuleRequestSchema,
  fileMappingFindingsQuerySchema,
  fileMappingFindingsResultSchema,
  mappingFindingsPageSchema,
  mappingFindingsQuerySchema,
  metadataTagRuleSchema,
  saveMetadataTagRuleRequestSchema,
} from '../metadata-mapping';
import { defineEndpoint } from './define';
import { routes } from './routes';

/** Keyword → tag mapping (issue 42; paths of our own, SPEC names none). Rules: function code 4. */
export const metadataMappingEndpoints = {
  metadataTagRules: defineEndpoint({
    ...routes.metadataTagRules,
    reply: 'json',
    result: z.array(metadataTagRuleSchema),
  }),
  saveMetadataTagRule: defineEndpoint({
    ...routes.saveMetadataTagRule,
    body: saveMetadataTagRuleRequestSchema,
    reply: 'json',
    result: metadataTagRuleSchema,
  }),
  deleteMetadataTagRule: defineEndpoint({
    ...routes.deleteMetadataTagRule,
    body: deleteMetadataTagRuleRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  /** The admin screen's recent conflicts and unmatched values (of files the caller may see). */
  mappingFindings: defineEndpoint({
    ...routes.mappingFindings,
    query: mappingFindingsQuerySchema,
    reply: 'json',
    result: mappingFindingsPageSchema,
  }),
  /** The viewer's metadata section: what the rules could not apply to this file. */
  fileMappingFindings: defineEndpoint({
    ...routes.fileMappingFindings,
    query: fileMappingFindingsQuerySchema,
    reply: 'json',
    result: fileMappingFindingsResultSchema,
  }),
};
