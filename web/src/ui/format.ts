import { FILE_NAME_MAX_CHARS, LIMITS, type NameProblem, nameProblem } from '@dam/contract';

/**
 * File sizes in SPEC §9's steps of 1024 (b, kb, m, g, t), written the way people read them
 * everywhere else: "1.4 MB", "512 B" (issue 39 item 13: "1.4m" read as a length).
 */
export function formatSize(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(value >= 100 ? 0 : 1)} ${units[unit]}`;
}

/** SPEC §9 default date format. */
export function formatDate(iso: string | null | undefined, withTime = true): string {
  if (!iso) return '—';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  const date = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  return withTime ? `${date} ${pad(d.getHours())}:${pad(d.getMinutes())}` : date;
}

/** Client-side check of a folder name with the contract's rule (SPEC §5, issue 9); the server checks again. */
export function folderNameProblem(name: string): NameProblem | null {
  return nameProblem(name, LIMITS.folderNameChars);
}

/** A file name as uploaded or renamed: the same rule, up to 255 characters. */
export function fileNameProblem(name: string): NameProblem | null {
  return nameProblem(name, FILE_NAME_MAX_CHARS);
}

/** The localised sentence for a name problem, as the server would say it. */
export function nameProblemText(
  t: (key: string, values?: Record<string, string | number>) => string,
  problem: NameProblem,
): string {
  switch (problem.kind) {
    case 'blank':
      return t('files.nameRequired');
    case 'tooLong':
      return t('files.nameTooLong', { max: problem.max });
    case 'illegalCharacter':
      return t('files.nameIllegal', { char: problem.char });
    case 'dotName':
      return t('files.nameDots');
    case 'edgeDot':
      return t('files.nameEdgeDot');
    case 'driveName':
      return t('files.nameDrive');
    case 'reservedName':
      return t('files.nameReserved', { name: problem.name });
  }
}
