import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** Issue 39: what a page may have at most, by axe-core's impact. */
export const AXE_LIMITS = { critical: 0, serious: 5 } as const;

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
  /** What axe says is wrong with the first element it found. */
  why: string;
}

/** axe-core's WCAG 2.x A and AA rules on the page as it is now (a settled page: wait first). */
export async function axeFindings(page: Page): Promise<AxeFinding[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return results.violations.map((violation) => ({
    id: violation.id,
    impact: violation.impact ?? 'minor',
    help: violation.help,
    targets: violation.nodes.map((node) => node.target.join(' ')),
    why: (violation.nodes[0]?.failureSummary ?? '').replace(/\s*\n\s*/g, ' '),
  }));
}

const count = (findings: AxeFinding[], impact: string) =>
  findings.filter((f) => f.impact === impact).reduce((sum, f) => sum + f.targets.length, 0);

/**
 * Fails the test (softly: the journey goes on to the next page) when the page has a critical node or more than 5 serious ones, naming each rule, its
 * impact and the first elements it found (all of them are printed to the test log either way).
 */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  const findings = await axeFindings(page);
  const lines = findings.map(
    (f) =>
      `  ${f.impact} ${f.id} (${f.targets.length}): ${f.help}\n      ${f.why}\n${f.targets
        .slice(0, 8)
        .map((t) => `      ${t}`)
        .join('\n')}`,
  );
  if (lines.length > 0) console.log(`[axe] ${label}\n${lines.join('\n')}`);
  const summary = `${label}: ${count(findings, 'critical')} critical, ${count(findings, 'serious')} serious nodes\n${lines.join('\n')}`;
  expect.soft(count(findings, 'critical'), summary).toBeLessThanOrEqual(AXE_LIMITS.critical);
  expect.soft(count(findings, 'serious'), summary).toBeLessThanOrEqual(AXE_LIMITS.serious);
}
