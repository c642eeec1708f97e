// Which journey files each shard runs: split by their measured times (web/e2e/journey-times.json),
// longest first onto the shard with the least so far, so the shards end together. Playwright's own
// --shard splits by count, and one shard then got the two five-minute accessibility journeys on top
// of its half (14 minutes against 10). A file not in the table counts as the median.
//
// `node scripts/journey-shards.mjs <report.json>…` writes the table anew from Playwright JSON
// reports (each shard writes one: test-results-<port>/report.json).
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const e2e = path.join(root, 'web/e2e');
const TIMES = path.join(e2e, 'journey-times.json');

/** Seconds a journey file took, by file name; `cluster` is the scaled-out run's whole time. */
function readTimes() {
  return JSON.parse(fs.readFileSync(TIMES, 'utf8'));
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 30 : sorted[Math.floor(sorted.length / 2)];
};

/**
 * The files of each of `count` shards, as paths Playwright takes as filters. `firstCarries` is time
 * the first shard spends after its journeys (the scaled-out run follows it), so it gets less.
 */
export function journeyFileShards(count, { firstCarries = 0 } = {}) {
  const times = readTimes();
  const files = fs.readdirSync(e2e).filter((name) => name.endsWith('.spec.ts'));
  const fallback = median(files.map((name) => times[name]).filter((value) => value !== undefined));
  const shards = Array.from({ length: count }, (_, index) => ({
    files: [],
    seconds: index === 0 ? firstCarries : 0,
  }));
  const byTime = files
    .map((name) => ({ name, seconds: times[name] ?? fallback }))
    .sort((a, b) => b.seconds - a.seconds || a.name.localeCompare(b.name));
  for (const file of byTime) {
    const least = shards.reduce((best, shard) => (shard.seconds < best.seconds ? shard : best));
    least.files.push(file.name);
    least.seconds += file.seconds;
  }
  // The directory in front keeps `upload.spec.ts` from matching `bulk-upload.spec.ts`.
  return shards.map((shard) => shard.files.sort().map((name) => `web/e2e/${name}`));
}

/** The scaled-out run's time from the table (0 when unknown). */
export const clusterSeconds = () => readTimes().cluster ?? 0;

if (import.meta.url === `file://${process.argv[1]}`) {
  const times = fs.existsSync(TIMES) ? readTimes() : {};
  const measured = {};
  for (const report of process.argv.slice(2)) {
    const json = JSON.parse(fs.readFileSync(report, 'utf8'));
    const visit = (suite) => {
      for (const spec of suite.specs ?? [])
        for (const test of spec.tests ?? [])
          for (const result of test.results ?? []) {
            const name = path.basename(suite.file ?? spec.file);
            measured[name] = (measured[name] ?? 0) + result.duration / 1000;
          }
      for (const child of suite.suites ?? []) visit(child);
    };
    for (const suite of json.suites ?? []) visit(suite);
  }
  for (const [name, seconds] of Object.entries(measured)) times[name] = Math.round(seconds);
  fs.writeFileSync(TIMES, `${JSON.stringify(times, null, 2)}\n`);
  console.log(`journey times: ${Object.keys(measured).length} files measured, written to ${TIMES}`);
}
