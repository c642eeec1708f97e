import { z } from 'zod';
import { folderRefSchema } from './items';

/**
 * Metadata embedded in files (issue 42): read from each upload record by ExifTool in the media
 * job, shown in the viewer's "metadata" section, searched on, written into downloads. See
 * docs/decisions.md, "Embedded metadata (issue 42)".
 */

/** Longest text kept of one embedded field (a stranger's file decides them: bounded before storing). */
export const METADATA_TEXT_MAX = 1000;
/** Most keywords kept of one file, and the longest kept. */
export const METADATA_KEYWORDS_MAX = 200;
export const METADATA_KEYWORD_MAX = 200;

/**
 * The namespace of the platform's own XMP fields written into downloads (file id, article numbers,
 * tags by dimension, signature). A permanent contract: files in the wild carry it.
 */
export const PLATFORM_XMP_NAMESPACE = 'https://ns.image-archive.dev/dam/1.0/';
export const PLATFORM_XMP_PREFIX = 'skdam';

/** What the reading of a record's metadata came to; stored as a smallint (`MetadataStatusCode`). */
export const METADATA_STATUSES = ['pending', 'ready', 'none', 'failed'] as const;
export const metadataStatusSchema = z.enum(METADATA_STATUSES);
export type MetadataStatus = z.infer<typeof metadataStatusSchema>;
export const MetadataStatusCode = { ready: 1, none: 2, failed: 3 } as const satisfies Record<
  Exclude<MetadataStatus, 'pending'>,
  number
>;

export const gpsPositionSchema = z.object({ latitude: z.number(), longitude: z.number() });

/** The fields read from one record; null (or empty) where the file has none. */
export const embeddedMetadataSchema = z.object({
  /** Make and model, as the camera writes them ("Canon EOS R5"). */
  camera: z.string().nullable(),
  lens: z.string().nullable(),
  /**
   * When the picture was taken, as the camera's clock said (`2026-05-04T10:20:30`), with its
   * offset from UTC where the file says it (`+08:00`), else without one: the zone is unknown.
   */
  capturedAt: z.string().nullable(),
  /** EXIF orientation 1–8 (the previews are already upright). */
  orientation: z.number().int().nullable(),
  gps: gpsPositionSchema.nullable(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  creator: z.string().nullable(),
  copyright: z.string().nullable(),
  usageTerms: z.string().nullable(),
  keywords: z.array(z.string()),
  /** XMP rating, -1 (rejected) to 5. */
  rating: z.number().int().nullable(),
  /** XMP colour label ("Red", or whatever the application wrote). */
  label: z.string().nullable(),
  /** The embedded ICC profile's name, and the colour space of the pixels ("RGB", "CMYK"…). */
  iccProfile: z.string().nullable(),
  colourSpace: z.string().nullable(),
  layerCount: z.number().int().nullable(),
  pageCount: z.number().int().nullable(),
  /** Video: seconds, the codec, frames a second. */
  duration: z.number().nullable(),
  videoCodec: z.string().nullable(),
  frameRate: z.number().nullable(),
});
export type EmbeddedMetadata = z.infer<typeof embeddedMetadataSchema>;

export const fileMetadataQuerySchema = z.object({
  folderDataId: folderRefSchema.refine((value) => value !== 'all', { error: 'invalidValue' }),
});
export const recordMetadataSchema = z.object({
  /** The upload record (folderDataInfoDTOList's id). */
  recordId: z.number().int(),
  format: z.string(),
  status: metadataStatusSchema,
  metadata: embeddedMetadataSchema.nullable(),
});
export type RecordMetadata = z.infer<typeof recordMetadataSchema>;
export const fileMetadataResultSchema = z.object({
  /** The file's records, newest first, each with what was read from it. */
  records: z.array(recordMetadataSchema),
});
export type FileMetadataResult = z.infer<typeof fileMetadataResultSchema>;
