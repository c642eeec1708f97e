import fs from 'node:fs/promises';
import path from 'node:path';
import type { UploadRow } from '../db/schema';
import type { UploadsRepository } from '../modules/uploads/repository';
import { MAX_RENDERED_PAGES, pageKeyOf } from '../storage/document-pages';
import type { ObjectStorage } from '../storage/storage';
import { run } from './tools';

/** The longer side of a page image: a catalogue page read on a large screen. */
export const PAGE_SIDE = 1600;
/** pdftoppm takes well under 0.1 s a page here; a document that takes this long is given up. */
const RENDER_TIMEOUT_MS = 10 * 60 * 1000;

/** The number of pages (pdfinfo), or null when it does not say. */
export async function pageCountOf(file: string): Promise<number | null> {
  const info = await run('pdfinfo', [file], 60_000);
  const match = /^Pages:\s+(\d+)/m.exec(info);
  return match ? Number(match[1]) : null;
}

/**
 * SPEC §2 file detail "previews PDF": every page of a PDF/AI (up to MAX_RENDERED_PAGES) as a JPEG
 * of at most PAGE_SIDE px, made by the media job once, so paging through a 200-page catalogue is
 * one image fetch a page (pdftoppm renders any one page in 0.03–0.04 s on these machines, and all
 * of them in one run). The page count goes on the record for the info panel.
 */
export class DocumentPages {
  constructor(private readonly deps: { uploads: UploadsRepository; storage: ObjectStorage }) {}

  async make(upload: UploadRow, file: string): Promise<void> {
    const count = await pageCountOf(file);
    if (!count) return;
    const last = Math.min(count, MAX_RENDERED_PAGES);
    const dir = await fs.mkdtemp(`${file}.pages-`);
    try {
      await run(
        'pdftoppm',
        [
          '-f',
          '1',
          '-l',
          String(last),
          '-jpeg',
          '-jpegopt',
          'quality=80',
          '-scale-to',
          String(PAGE_SIDE),
          file,
          path.join(dir, 'page'),
        ],
        RENDER_TIMEOUT_MS,
      );
      // pdftoppm names pages page-1.jpg … or page-001.jpg, padded to the last page's digits.
      for (const name of await fs.readdir(dir)) {
        const page = /^page-(\d+)\.jpg$/.exec(name);
        if (!page) continue;
        await this.deps.storage.writeFile(
          pageKeyOf(upload.storage_key, Number(page[1])),
          path.join(dir, name),
          'image/jpeg',
        );
      }
      await this.deps.uploads.update(upload.id, { page_count: count });
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }
}
