import { type Kysely, sql } from 'kysely';

/**
 * What the viewer needs beyond a picture (issue 11 items 2 and 3): a video's playable rendition
 * and a document's page count.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // A video's H.264/AAC MP4 made by the media job when the browser cannot play the original;
  // null while none is needed or made. play_status is a PreviewStatus, null for non-videos and
  // for videos recorded before this migration (their MP4/WebM originals play as before).
  await sql`ALTER TABLE uploads ADD COLUMN play_key text`.execute(db);
  await sql`ALTER TABLE uploads ADD COLUMN play_status smallint`.execute(db);
  // PDF/AI pages, read by the media job; null until then and for other formats.
  await sql`ALTER TABLE uploads ADD COLUMN page_count integer`.execute(db);
}
