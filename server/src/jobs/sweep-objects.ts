import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { migrateToLatest, openDatabase } from '../db/database';
import { systemClock } from '../lib/clock';
import { deletionGateOf } from '../modules/backup/service';
import { formatSweepReport } from '../modules/deletion-outbox/report';
import { ObjectDeletionsRepository } from '../modules/deletion-outbox/repository';
import { ObjectCleaner, SWEEP_GRACE_MS } from '../modules/deletion-outbox/service';
import { localMediaUrlMaker } from '../modules/media/urls';
import { localPartUrlMaker } from '../modules/uploads/service';
import { uploadsOn } from '../repositories';
import { createStorage } from '../storage/index';

const USAGE = `npm run sweep-objects -- --dry-run | --apply [--grace-hours 24]

Lists the objects in storage (local disk or S3) that no upload record holds, with their sizes and
a total; --apply deletes them. Objects younger than the grace period are left alone. With the
embedded database, stop the server first (PGlite belongs to one process).`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'dry-run': { type: 'boolean', default: false },
      apply: { type: 'boolean', default: false },
      'grace-hours': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || values.apply === values['dry-run']) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const graceHours =
    values['grace-hours'] === undefined ? SWEEP_GRACE_MS / 3600_000 : Number(values['grace-hours']);
  if (!Number.isFinite(graceHours) || graceHours < 1) {
    console.error('--grace-hours must be a number of hours, at least 1');
    process.exit(2);
  }
  const config = loadConfig();
  const pgliteDir = path.join(config.DATA_DIR, 'db');
  if (!config.DATABASE_URL && !fs.existsSync(pgliteDir)) {
    // Opening would create an empty database, in which every object looks orphaned.
    console.error(`no database at ${pgliteDir}: set DATA_DIR (or DATABASE_URL) as the server has it`);
    process.exit(2);
  }
  const database = await openDatabase({
    url: config.DATABASE_URL,
    pgliteDir,
    pgliteCacheMb: config.EMBEDDED_DB_CACHE_MB,
    poolSize: 2,
  });
  try {
    await migrateToLatest(database.db);
    const secret = await uploadsOn(database.db).sharedSecret('part-url-secret');
    const storage = createStorage(config, localPartUrlMaker(secret), localMediaUrlMaker(secret));
    const objects = new ObjectDeletionsRepository(database.db);
    const apply = values.apply === true;
    if (apply && !(await objects.anyUpload())) {
      // Without a single record every object is an orphan: almost surely the wrong database.
      console.error('the database holds no upload record: refusing to delete every object (wrong database?)');
      process.exitCode = 2;
      return;
    }
    const cleaner = new ObjectCleaner({
      objects,
      storage,
      clock: systemClock,
      // A backup running elsewhere (PostgreSQL) holds deletions off: those found are left for later.
      gate: deletionGateOf(database),
    });
    const report = await cleaner.sweep({
      apply,
      now: new Date(),
      graceMs: graceHours * 3600_000,
    });
    console.log(formatSweepReport(report, apply));
    if (report.failed.length > 0) process.exitCode = 1;
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error('sweep-objects failed:', error);
  process.exit(1);
});
