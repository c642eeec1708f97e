import { z } from 'zod';
import { folderRefSchema } from './items';

/**
 * Keyword → tag mapping (issue 42): rules from a field of the embedded metadata to a tag
 * dimension, applied when a file's metadata is read; and what they could not apply (conflicts,
 * unmatched values). See docs/decisions.md, "Keyword → tag mapping (issue 42)".
 */

/** The fields of upload_metadata a rule may read; keywords give one value each, the rest one value. */
export const METADATA_MAPPING_SOURCES = [
  'keywords',
  'title',
  'creator',
  'copyright',
  'label',
  'camera',
] as const;
export const metadataMappingSourceSchema = z.enum(METADATA_MAPPING_SOURCES);
export type MetadataMappingSource = z.infer<typeof metadataMappingSourceSchema>;

export const metadataTagRuleSchema = z.object({
  id: z.number().int(),
  source: metadataMappingSourceSchema,
  dimensionId: z.number().int(),
  dimensionName: z.string(),
  updatedAt: z.string(),
});
export type MetadataTagRule = z.infer<typeof metadataTagRuleSchema>;

/** Adds a rule (no id) or changes one; one rule per (source, dimension). */
export const saveMetadataTagRuleRequestSchema = z.object({
  id: z.number().int().positive().optional(),
  source: metadataMappingSourceSchema,
  dimensionId: z.number().int().positive(),
});
export const deleteMetadataTagRuleRequestSchema = z.object({ id: z.number().int().positive() });

/**
 * Why a value was not applied: `taken` the file already has another tag of the dimension (never
 * overwritten), `parent` its superior tag is missing, `required` the file's tag set would leave a
 * required dimension empty, `unmatched` the dimension has no tag of that name (none is made).
 */
export const MAPPING_FINDING_REASONS = ['taken', 'parent', 'required', 'unmatched'] as const;
export const mappingFindingReasonSchema = z.enum(MAPPING_FINDING_REASONS);
export type MappingFindingReason = z.infer<typeof mappingFindingReasonSchema>;

export const mappingFindingSchema = z.object({
  id: z.number().int(),
  fileId: z.number().int(),
  fileName: z.string(),
  recordId: z.number().int(),
  source: metadataMappingSourceSchema,
  dimensionId: z.number().int(),
  dimensionName: z.string(),
  value: z.string(),
  reason: mappingFindingReasonSchema,
  /** Names the message shows: the file's tags of the dimension (taken), the superior tag, the dimensions. */
  detail: z.array(z.string()),
  createdAt: z.string(),
});
export type MappingFinding = z.infer<typeof mappingFindingSchema>;

export const fileMappingFindingsQuerySchema = z.object({
  folderDataId: folderRefSchema.refine((value) => value !== 'all', { error: 'invalidValue' }),
});
export const fileMappingFindingsResultSchema = z.object({ list: z.array(mappingFindingSchema) });

/** The admin screen's recent findings: newest first. */
export const mappingFindingsQuerySchema = z.object({
  pageNo: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
});
export const mappingFindingsPageSchema = z.object({
  list: z.array(mappingFindingSchema),
  total: z.number().int(),
  pageNo: z.number().int(),
  pageSize: z.number().int(),
});
export type MappingFindingsPage = z.infer<typeof mappingFindingsPageSchema>;
