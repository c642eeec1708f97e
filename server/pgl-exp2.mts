import { openDatabase, migrateToLatest } from './src/db/database';
import { startJobQueue } from './src/jobs/queue';
const rss = () => Math.round(process.memoryUsage().rss / 2 ** 20);
const h = await openDatabase({ pgliteDir: process.argv[2] });
await migrateToLatest(h.db);
console.log('after migrate', rss());
if (process.argv[3] !== 'nojobs') { const j = await startJobQueue(h, { onError: () => {} }); console.log('after jobs', rss()); await new Promise(r=>setTimeout(r,3000)); await j.stop(); }
global.gc?.(); console.log('end', rss());
await h.close();
