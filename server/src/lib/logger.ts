import { type Logger, pino } from 'pino';

/**
 * The process-level logger of `main.ts`, `worker.ts` and the maintenance scripts: the same JSON
 * lines as the request log (Fastify's own pino), so start-up failures and job-queue errors reach
 * the log collector with their stack (`err` is serialised with `stack`), which `console.error`
 * with `error.message` lost.
 */
export function processLogger(level: string = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({ level, base: { pid: process.pid } });
}
