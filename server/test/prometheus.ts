import { spawnSync } from 'node:child_process';

/**
 * `promtool check metrics` (Debian's prometheus package, installed by scripts/setup-system.sh) on
 * a scrape: its exit code and whatever it printed (parse errors, lint complaints).
 */
export function promtoolCheck(text: string): { status: number | null; output: string } {
  const result = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
  if (result.error) throw result.error;
  return { status: result.status, output: `${result.stdout}${result.stderr}`.trim() };
}

/** One sample's value in a text exposition, by metric name and exact label set; undefined when absent. */
export function sampleValue(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const wanted = Object.entries(labels)
    .map(([key, value]) => `${key}="${value}"`)
    .sort()
    .join(',');
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const got = (match[2] ?? '')
      .split(/,(?=[a-zA-Z_]+=")/)
      .filter(Boolean)
      .sort()
      .join(',');
    if (got === wanted) return Number(match[3]);
  }
  return undefined;
}

/** The label sets of a metric's samples in a text exposition. */
export function labelSets(text: string, name: string): Record<string, string>[] {
  const sets: Record<string, string>[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)\{(.*)\} \S+$/.exec(line);
    if (!match || match[1] !== name) continue;
    sets.push(
      Object.fromEntries([...(match[2] ?? '').matchAll(/([a-zA-Z_]+)="([^"]*)"/g)].map((m) => [m[1], m[2]])),
    );
  }
  return sets;
}
