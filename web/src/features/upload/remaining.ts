/** Seconds as "3 min 20 s"-style text; above 24 h "over one day" (SPEC §9). */
export function remaining(
  t: (k: string, v?: Record<string, string>) => string,
  seconds: number | null,
): string {
  if (seconds === null) return '';
  if (seconds > 86_400) return t('upload.remaining', { time: t('upload.overOneDay') });
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return t('upload.remaining', {
    time: `${h ? `${h}:` : ''}${String(m).padStart(h ? 2 : 1, '0')}:${String(s).padStart(2, '0')}`,
  });
}
