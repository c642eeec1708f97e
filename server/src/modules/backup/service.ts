import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config';
import type { DatabaseHandle } from '../../db/database';
import type { JobQueue } from '../../jobs/queue';
import { createStorage } from '../../storage/index';
import { type BackupSource, serverVersion, takeBackup } from './backup';
import { controlSocketFits, controlSocketPath, startControlServer } from './control';
import { DeletionGate } from './deletion-gate';
import { MANIFEST_FILE } from './manifest';

const gates = new WeakMap<DatabaseHandle, DeletionGate>();

/** The deletion gate of a database handle: one per process and database, shared by the object cleaner and backups. */
export function deletionGateOf(database: DatabaseHandle): DeletionGate {
  let gate = gates.get(database);
  if (!gate) {
    gate = new DeletionGate(database.kind === 'postgres' ? database.db : null);
    gates.set(database, gate);
  }
  return gate;
}

/** A scheduled backup's directory name: `dam-backup-20260105T030000Z`. */
const SCHEDULED_NAME = /^dam-backup-\d{8}T\d{6}Z$/;
const scheduledName = (at: Date) =>
  `dam-backup-${at
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replaceAll('-', '')
    .replaceAll(':', '')}`;

/**
 * One scheduled backup into BACKUP_DIR: written under a hidden `.partial` name and renamed when
 * complete, then all but the newest `keep` complete backups are removed (with the partial ones
 * earlier runs left behind). Answers the new backup's directory.
 */
export async function runScheduledBackup(source: BackupSource, dir: string, keep: number): Promise<string> {
  const at = (source.now ?? (() => new Date()))();
  const name = scheduledName(at);
  const partial = path.join(dir, `.${name}.partial`);
  const final = path.join(dir, name);
  await fsp.mkdir(dir, { recursive: true });
  for (const entry of await fsp.readdir(dir))
    if (/^\.dam-backup-.*\.partial$/.test(entry))
      await fsp.rm(path.join(dir, entry), { recursive: true, force: true });
  await takeBackup({ ...source, now: () => at }, partial);
  await fsp.rename(partial, final);
  await pruneBackups(dir, keep);
  return final;
}

/** Removes all but the newest `keep` complete scheduled backups of `dir` (nothing else in it). */
export async function pruneBackups(dir: string, keep: number): Promise<void> {
  const complete = (await fsp.readdir(dir))
    .filter((entry) => SCHEDULED_NAME.test(entry) && fs.existsSync(path.join(dir, entry, MANIFEST_FILE)))
    .sort()
    .reverse();
  for (const old of complete.slice(keep)) await fsp.rm(path.join(dir, old), { recursive: true, force: true });
}

export interface BackupsOptions {
  config: Config;
  database: DatabaseHandle;
  jobs: JobQueue | null;
  /** Listen on the control socket (the server on the embedded database). */
  control: boolean;
  /** Work the scheduled backups (processes that work jobs). */
  work: boolean;
  info: (details: object, message: string) => void;
  warn: (details: object, message: string) => void;
}

/**
 * Backups of a running process: the control channel `npm run backup` asks when the embedded
 * database is open here, and the scheduled backup (BACKUP_SCHEDULE, off unless set) on the job
 * queue, so one process takes each scheduled run, whichever works jobs (the server, or a worker
 * when scaled out).
 */
export async function startBackups(options: BackupsOptions): Promise<{ close(): Promise<void> }> {
  const { config, database, jobs } = options;
  const source: BackupSource = {
    config,
    database,
    storage: createStorage(config, () => ''),
    gate: deletionGateOf(database),
    appVersion: serverVersion(),
  };
  let control: { close(): Promise<void> } | null = null;
  if (options.control && database.kind === 'pglite') {
    if (controlSocketFits(config.DATA_DIR)) {
      control = await startControlServer(config.DATA_DIR, (request, progress) =>
        takeBackup({ ...source, progress }, request.out, { withObjects: request.withObjects }),
      );
    } else {
      options.warn(
        { socket: controlSocketPath(config.DATA_DIR) },
        'DATA_DIR is too deep for the backup control socket: stop the server to run `npm run backup`',
      );
    }
  }
  if (options.work && jobs) {
    const schedule = config.BACKUP_SCHEDULE && config.BACKUP_DIR ? config.BACKUP_SCHEDULE : null;
    const dir = path.resolve(config.BACKUP_DIR ?? '.');
    await jobs.workBackups(schedule ? { cron: schedule, tz: config.BUSINESS_TIME_ZONE } : null, async () => {
      try {
        const written = await runScheduledBackup(source, dir, config.BACKUP_KEEP);
        options.info({ backup: written, keep: config.BACKUP_KEEP }, 'scheduled backup written');
      } catch (err) {
        options.warn({ err, dir }, 'scheduled backup failed');
        throw err;
      }
    });
  }
  return { close: async () => control?.close() };
}
