import type { Db } from '../../db/database';
import { signatureHolds } from './embed';

/**
 * The round trip (issue 42 item 5): a file downloaded with the platform's metadata and uploaded
 * again names the file it came from. Only marks this platform signed count (anyone can type an XMP
 * field); whether the uploader may see that file is the caller's check.
 */
export class EmbeddedOrigins {
  constructor(
    private readonly deps: {
      db: Db;
      /** The key the downloads signed their marks with. */
      secret: () => Promise<string>;
    },
  ) {}

  /** Of these upload records, the ones carrying a valid mark, with the file id it names. */
  async of(uploadIds: readonly number[]): Promise<Map<number, number>> {
    const origins = new Map<number, number>();
    if (uploadIds.length === 0) return origins;
    const rows = await this.deps.db
      .selectFrom('upload_metadata')
      .select(['upload_id', 'platform_file_id', 'platform_article_numbers', 'platform_signature'])
      .where('upload_id', 'in', [...new Set(uploadIds)])
      .where('platform_file_id', 'is not', null)
      .where('platform_signature', 'is not', null)
      .execute();
    if (rows.length === 0) return origins;
    const secret = await this.deps.secret();
    for (const row of rows) {
      const fileId = row.platform_file_id as string;
      if (!/^[1-9]\d{0,15}$/.test(fileId)) continue;
      if (signatureHolds(secret, fileId, row.platform_article_numbers, row.platform_signature as string))
        origins.set(row.upload_id, Number(fileId));
    }
    return origins;
  }
}
