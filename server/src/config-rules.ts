import type { z } from 'zod';
import type { envObject } from './config';

/** What one variable may be only given another (config.ts's schema checks each on its own). */
export function crossFieldRules(env: z.infer<typeof envObject>, ctx: z.RefinementCtx): void {
  if (env.BACKUP_SCHEDULE && !env.BACKUP_DIR)
    ctx.addIssue({ code: 'custom', path: ['BACKUP_DIR'], message: 'is needed when BACKUP_SCHEDULE is set' });
  // Node refuses a headers timeout beyond the request timeout; uploads get at least as long.
  if (env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS)
    ctx.addIssue({
      code: 'custom',
      path: ['HTTP_HEADERS_TIMEOUT_MS'],
      message: 'must not exceed HTTP_REQUEST_TIMEOUT_MS',
    });
  if (env.SMS_PROVIDER === 'http' && !env.SMS_HTTP_URL)
    ctx.addIssue({ code: 'custom', path: ['SMS_HTTP_URL'], message: 'is needed when SMS_PROVIDER=http' });
  for (const name of ['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const)
    if (env.OIDC_ISSUER && !env[name])
      ctx.addIssue({ code: 'custom', path: [name], message: 'is needed when OIDC_ISSUER is set' });
  if (env.OIDC_ISSUER && env.OIDC_AUTO_CREATE && env.OIDC_DEFAULT_DEPT_ID === undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['OIDC_DEFAULT_DEPT_ID'],
      message: 'is needed when OIDC_AUTO_CREATE=true (the department new accounts join)',
    });
  if (env.METRICS_PORT !== undefined && !env.METRICS_TOKEN)
    ctx.addIssue({ code: 'custom', path: ['METRICS_TOKEN'], message: 'is needed when METRICS_PORT is set' });
  if (env.HTTP_REQUEST_TIMEOUT_MS > env.HTTP_UPLOAD_TIMEOUT_MS)
    ctx.addIssue({
      code: 'custom',
      path: ['HTTP_REQUEST_TIMEOUT_MS'],
      message: 'must not exceed HTTP_UPLOAD_TIMEOUT_MS',
    });
}
