import { endpoints, IMPORT_MAX_BYTES } from '@dam/contract';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import { invalidField } from '../../http/app-error';
import { route } from '../../http/endpoint';
import { authOf } from '../../http/request-context';
import type { ImportsService } from './service';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const attachment = (name: string) => `attachment; filename*=UTF-8''${encodeURIComponent(name)}`;

/** Import management (SPEC §2 /manage/import, §6 code 8; issue 14). */
export const importsRoutes: FastifyPluginAsync<{ imports: ImportsService }> = async (app, { imports }) => {
  await app.register(multipart, {
    // Cut at the limit instead of failing mid-stream; the service reports SESK_06.
    throwFileSizeLimit: false,
    limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 10, parts: 11, fieldSize: 1024 },
  });

  route(
    app,
    endpoints.createImport,
    // A workbook may take HTTP_UPLOAD_TIMEOUT_MS to arrive (http/connection-limits.ts).
    { config: { longBody: true } },
    async (request) => {
      const auth = authOf(request);
      // Refused before a byte of the workbook is read.
      imports.requireImport(auth, request.query.kind);
      if (!request.isMultipart()) throw invalidField('content-type', 'invalidFormat');
      const part = await request.file();
      if (part?.fieldname !== 'file' || !part) throw invalidField('file', 'required');
      return imports.create(
        auth,
        request.query.kind,
        { fileName: part.filename, stream: part.file, truncated: () => part.file.truncated },
        request.lang,
      );
    },
  );
  route(app, endpoints.importDetail, async (request) =>
    imports.detail(authOf(request), request.query.id, request.lang),
  );
  route(app, endpoints.applyImport, async (request) =>
    imports.apply(authOf(request), request.body.id, request.lang),
  );
  route(app, endpoints.discardImport, async (request) =>
    imports.discard(authOf(request), request.body.id, request.lang),
  );
  route(app, endpoints.importList, async (request) => imports.list(authOf(request), request.query));
  route(app, endpoints.importErrorReport, async (request, reply) => {
    const bytes = await imports.errorReport(authOf(request), request.query.id, request.lang);
    const name =
      request.lang === 'zh'
        ? `导入错误报告-${request.query.id}.xlsx`
        : `import-errors-${request.query.id}.xlsx`;
    reply.header('content-type', XLSX_TYPE);
    reply.header('content-disposition', attachment(name));
    return reply.send(bytes);
  });
  route(app, endpoints.importTemplate, async (request, reply) => {
    const chinese = request.lang === 'zh';
    const bytes = await imports.template(authOf(request), request.query.kind, chinese);
    const name =
      request.query.kind === 'sku'
        ? chinese
          ? '货号导入模板.xlsx'
          : 'sku-import-template.xlsx'
        : chinese
          ? '货号标签导入模板.xlsx'
          : 'article-tags-template.xlsx';
    reply.header('content-type', XLSX_TYPE);
    reply.header('content-disposition', attachment(name));
    return reply.send(bytes);
  });
};
