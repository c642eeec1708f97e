import type { SweepReport } from './service';

function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

/** The report of a sweep as lines of text: one line per orphan, then the totals. */
export function formatSweepReport(report: SweepReport, apply: boolean): string {
  const lines = report.orphans.map(
    (o) => `${o.key}\t${o.size}\t${formatBytes(o.size)}\t${o.lastModified.toISOString()}`,
  );
  lines.push(
    `${report.orphans.length} orphaned object(s), ${formatBytes(report.orphanBytes)} (${report.orphanBytes} bytes), of ${report.scanned} scanned; ${report.young} unreferenced but younger than the grace period left alone; ${report.foreign} with keys this platform does not write never touched.`,
  );
  if (apply) {
    lines.push(`deleted ${report.deleted}; failed ${report.failed.length}`);
    for (const f of report.failed) lines.push(`  failed: ${f.key}: ${f.error}`);
  } else {
    lines.push('dry run: nothing deleted (run with --apply to delete them).');
  }
  return lines.join('\n');
}
