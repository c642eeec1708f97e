/** File sizes in the units of SPEC §9 (b, kb, m, g, t). */
export function formatSize(bytes: number): string {
  const units = ['b', 'kb', 'm', 'g', 't'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(value >= 100 ? 0 : 1)}${units[unit]}`;
}

/** SPEC §9 default date format. */
export function formatDate(iso: string | null | undefined, withTime = true): string {
  if (!iso) return '—';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  const date = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  return withTime ? `${date} ${pad(d.getHours())}:${pad(d.getMinutes())}` : date;
}

/** Client-side check of a folder name (SPEC §5); the server checks again. */
export function folderNameProblem(
  name: string,
): { key: 'files.nameRequired' | 'files.nameTooLong' | 'files.nameIllegal'; char?: string } | null {
  const trimmed = name.trim();
  if (!trimmed) return { key: 'files.nameRequired' };
  const illegal = [...trimmed].find((c) => c === '$' || c === '|' || c === '/');
  if (illegal) return { key: 'files.nameIllegal', char: illegal };
  if ([...trimmed].length > 50) return { key: 'files.nameTooLong' };
  return null;
}
