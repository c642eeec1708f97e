import type { FileMetadataResult } from '@dam/contract';
import type { AuthContext } from '../access/access';
import { visibleFile } from '../items/lookup';
import type { ItemsRepository } from '../items/repository';
import type { MetadataRepository } from './repository';

/**
 * The viewer's "metadata" section (issue 42). Whoever may see a file sees everything read from it,
 * its GPS position included (SPEC's visibility is the file's; the download presets strip it).
 */
export class MetadataService {
  constructor(private readonly deps: { repo: MetadataRepository; items: ItemsRepository }) {}

  async ofFile(auth: AuthContext, itemId: number): Promise<FileMetadataResult> {
    // Hidden answers like unknown, so ids cannot be probed (docs/decisions.md, Errors).
    await visibleFile(this.deps.items, auth, itemId);
    const records = await this.deps.repo.recordsOfItem(itemId);
    const stored = await this.deps.repo.ofUploads(records.map((record) => record.id));
    return {
      records: records.map((record) => {
        const found = stored.get(record.id);
        return {
          recordId: record.id,
          format: record.format,
          status: found?.status ?? 'pending',
          metadata: found?.metadata ?? null,
        };
      }),
    };
  }
}
