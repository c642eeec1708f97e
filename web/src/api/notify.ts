import { LIMITS } from '@dam/contract';

type Show = (text: string) => void;

let showError: Show = (text) => console.error(text);
let showSuccess: Show = (text) => console.info(text);
const lastShown = new Map<string, number>();

/** The app shell hands over Ant Design's message API once it is mounted. */
export function setNotifier(error: Show, success: Show): void {
  showError = error;
  showSuccess = success;
}

/** Shows an error unless the same text was shown in the last 2 s (SPEC §8). */
export function notifyError(text: string, now = Date.now()): boolean {
  const last = lastShown.get(text);
  if (last !== undefined && now - last < LIMITS.errorDedupMs) return false;
  lastShown.set(text, now);
  showError(text);
  return true;
}

export function notifySuccess(text: string): void {
  showSuccess(text);
}
