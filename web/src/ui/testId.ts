/**
 * A `data-testid` as props to spread: `{...testId('preset-save')}`, `{...testId('list', kind)}`.
 * Spread form also fits props objects Ant Design types without `data-*` (okButtonProps, say).
 */
export function testId(...parts: Array<string | number>): Record<`data-${string}`, string> {
  return { 'data-testid': parts.join('-') };
}
