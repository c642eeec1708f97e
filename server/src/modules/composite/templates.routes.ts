import { endpoints, OperationCode, TEMPLATE_ASSET_MAX_BYTES } from '@dam/contract';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import { invalidField } from '../../http/app-error';
import { route } from '../../http/endpoint';
import { authOf } from '../../http/request-context';
import type { OperationRecorder } from '../logs/recorder';
import type { LogSubject } from '../logs/snapshot';
import type { TemplateSaved, TemplatesService } from './templates.service';

/** What a template's log entry keeps: its name, id, version and what changed. */
function templateLogSubject(saved: TemplateSaved): LogSubject {
  return {
    newValue: saved.name,
    details: {
      templateId: saved.id,
      version: saved.version,
      ...(saved.created
        ? {}
        : { changed: Object.keys(saved.changes).filter((key) => saved.changes[key as 'spec']) }),
    },
  };
}

/**
 * Detail-page templates (issue 16) in the main API, signed-in callers only; the service checks
 * function code 9 where managing needs it. Creating, changing and deleting are logged (TPL01–03);
 * a save that changed nothing writes no entry.
 */
export const compositeTemplatesRoutes: FastifyPluginAsync<{
  templates: TemplatesService;
  oplog: OperationRecorder;
}> = async (app, { templates, oplog }) => {
  await app.register(multipart, {
    // Cut at the limit instead of failing mid-stream; the service refuses a cut-off image.
    throwFileSizeLimit: false,
    limits: { fileSize: TEMPLATE_ASSET_MAX_BYTES, files: 1, fields: 10, parts: 11, fieldSize: 1024 },
  });

  route(app, endpoints.templateList, async (request) =>
    templates.list(authOf(request), request.query.manage === 1),
  );
  route(app, endpoints.templateDetail, async (request) => templates.detail(authOf(request), request.query));
  route(app, endpoints.saveTemplate, async (request) => {
    const saved = await templates.save(authOf(request), request.body);
    if (saved.created) await oplog.record(request, OperationCode.createTemplate, templateLogSubject(saved));
    else if (Object.values(saved.changes).some(Boolean))
      await oplog.record(request, OperationCode.editTemplate, templateLogSubject(saved));
    return { id: saved.id, version: saved.version };
  });
  route(app, endpoints.deleteTemplate, async (request) => {
    const name = await templates.delete(authOf(request), request.body.id);
    // Already deleted (or never there): nothing happened, so nothing is logged.
    if (name !== null)
      await oplog.record(request, OperationCode.deleteTemplate, {
        newValue: name,
        details: { templateId: request.body.id },
      });
    return null;
  });
  route(app, endpoints.templateFonts, async () => templates.fonts());

  route(
    app,
    endpoints.uploadTemplateAsset,
    // An image may take HTTP_UPLOAD_TIMEOUT_MS to arrive (http/connection-limits.ts).
    { config: { longBody: true } },
    async (request) => {
      const auth = authOf(request);
      // Refused before a byte of the image is read.
      templates.requireManage(auth);
      if (!request.isMultipart()) throw invalidField('content-type', 'invalidFormat');
      const part = await request.file();
      if (part?.fieldname !== 'file' || !part) throw invalidField('file', 'required');
      return templates.uploadAsset(auth, { stream: part.file, truncated: () => part.file.truncated });
    },
  );
  route(app, endpoints.templateAssetFromFile, async (request) =>
    templates.assetFromFile(authOf(request), request.body.folderDataId),
  );

  route(app, endpoints.previewTemplate, async (request, reply) => {
    const bytes = await templates.preview(authOf(request), request.body, request.lang);
    reply.header('content-type', 'image/jpeg');
    // Each preview is of a draft that keeps changing: never reuse one.
    reply.header('cache-control', 'no-store');
    return reply.send(bytes);
  });
};
