import { type PresetFormat, renderFileName, templateProblem } from '@dam/contract';

/** An example name for the form's preview: what a 1600×1200 SHOE123 would be called. */
export function exampleName(
  template: string,
  format: PresetFormat,
  longSidePx: number | null,
): string | null {
  if (!template.trim() || templateProblem(template.trim())) return null;
  const factor = longSidePx ? longSidePx / 1600 : 1;
  return renderFileName(template.trim(), {
    name: 'SHOE123 side',
    artNum: 'SHOE123',
    index: 1,
    format,
    width: Math.round(1600 * factor),
    height: Math.round(1200 * factor),
  });
}
