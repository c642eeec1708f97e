import { fileMetadataQuerySchema, fileMetadataResultSchema } from '../metadata';
import { defineEndpoint } from './define';
import { routes } from './routes';

/** Metadata embedded in files (issue 42; a path of our own, SPEC names none). */
export const metadataEndpoints = {
  /** The viewer's "metadata" section: what was read from each of a file's records. */
  fileMetadata: defineEndpoint({
    ...routes.fileMetadata,
    query: fileMetadataQuerySchema,
    reply: 'json',
    result: fileMetadataResultSchema,
  }),
};
