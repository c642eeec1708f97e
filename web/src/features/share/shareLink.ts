import { isShareCode } from '@dam/contract';

/**
 * The share code in what a colleague sent: the whole link (…/visitfile?code=…) or the code alone;
 * null when it holds none.
 */
export function shareCodeIn(text: string): string | null {
  const trimmed = text.trim();
  let code = trimmed;
  try {
    code = new URL(trimmed).searchParams.get('code') ?? '';
  } catch {
    // Not a URL: the code itself.
  }
  return isShareCode(code) ? code : null;
}
