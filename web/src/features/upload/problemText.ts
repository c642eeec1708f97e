import { nameProblemText } from '../../ui/format';
import type { PickProblem } from './engine/pickFiles';

/** Why a picked set of files cannot be uploaded, in the user's language. */
export function problemText(
  t: (key: string, values?: Record<string, string | number>) => string,
  problem: PickProblem,
): string {
  if (problem.kind === 'tooMany') return t('upload.tooMany');
  if (problem.kind === 'tooLarge') return t('upload.tooLarge', { name: problem.fileName });
  if (problem.kind === 'badName')
    return t('upload.badName', { name: problem.fileName, reason: nameProblemText(t, problem.problem) });
  return t('upload.sameFile', { name: problem.fileName });
}
