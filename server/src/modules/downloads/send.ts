import { safePathSegment } from '@dam/contract';
import type { FastifyReply } from 'fastify';
import type { DownloadPlan, DownloadsService } from './service';
import { streamZip } from './zip';

const attachment = (name: string) => `attachment; filename*=UTF-8''${encodeURIComponent(name)}`;

/**
 * One file as itself, several (or a download by article number) as a zip streamed while it is
 * built. Signed-in and share-link downloads alike send their plan through here.
 */
export async function sendDownload(
  downloads: DownloadsService,
  plan: DownloadPlan,
  reply: FastifyReply,
  /** The zip's file name (`download-<UTC stamp>.zip` unless given). */
  options: { zipName?: string } = {},
): Promise<FastifyReply> {
  const only = plan.files[0];
  if (plan.files.length === 1 && only && plan.problems.length === 0 && !plan.forceZip) {
    const opened = await downloads.open(only);
    const name = safePathSegment((opened.path ?? only.path).split('/').pop() ?? only.path);
    reply.header('content-type', downloads.contentTypeOf(only));
    reply.header('content-disposition', attachment(name));
    // A rewritten original (its metadata written or stripped) has a size of its own.
    const length = opened.size ?? (only.output ? undefined : only.source.file_size);
    if (length !== undefined) reply.header('content-length', length);
    return reply.send(opened.stream);
  }
  const { stream, abort } = streamZip(downloads.zipEntries(plan), plan.problems);
  // The client went away before the end: stop reading sources and free everything at once.
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) abort();
  });
  const stamp = new Date().toISOString().slice(0, 19).replace(/\D/g, '');
  reply.header('content-type', 'application/zip');
  reply.header('content-disposition', attachment(options.zipName ?? `download-${stamp}.zip`));
  return reply.send(stream);
}
