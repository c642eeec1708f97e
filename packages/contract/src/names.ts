import { LIMITS } from './constants';

/**
 * The one rule for names of folders and files (SPEC §5, issue 9 item 7): what a user may call an
 * item, and how a name already stored is made safe as a zip entry. Server schemas and the web app's
 * own checks both use `nameProblem`, so the browser shows the same message before sending.
 */

/** Characters no file or folder name may contain: SPEC §5's `$ | /`, and `\` (a path separator on Windows). */
export const ILLEGAL_NAME_CHARACTERS = ['$', '|', '/', '\\'] as const;

/** Longest file name (as uploaded or renamed): what file systems allow. Folder names: LIMITS.folderNameChars. */
export const FILE_NAME_MAX_CHARS = 255;

/** C0 and C1 control characters (U+0000–U+001F, U+007F–U+009F). */
const isControl = (char: string): boolean => {
  const code = char.codePointAt(0) ?? 0;
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
};

/** How a character is shown in a message: itself, or `U+0000` when it is invisible. */
function shownChar(char: string): string {
  return isControl(char)
    ? `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`
    : char;
}

/** The first illegal character of a name as shown in a message (`$`, `U+0000`…), or null. */
export function firstIllegalCharacter(name: string): string | null {
  for (const char of name) {
    if ((ILLEGAL_NAME_CHARACTERS as readonly string[]).includes(char) || isControl(char))
      return shownChar(char);
  }
  return null;
}

/** Windows device names: reserved whatever the extension (`CON`, `con.txt`, `NUL.tar.gz`). */
const RESERVED_DEVICE_NAME = /^(CON|PRN|AUX|NUL|COM[1-9¹²³]|LPT[1-9¹²³])$/i;
/** `C:`, `c:stuff`: a drive-relative path on Windows. */
const DRIVE_FORM = /^[A-Za-z]:/;

/** The device name a name starts with, as written (`con` of `con.txt`), or null. */
function reservedDeviceName(name: string): string | null {
  const stem = (name.split('.')[0] ?? '').replace(/ +$/, '');
  return RESERVED_DEVICE_NAME.test(stem) ? stem : null;
}

export type NameProblem =
  | { kind: 'blank' }
  | { kind: 'illegalCharacter'; char: string }
  /** `.`, `..` or only dots. */
  | { kind: 'dotName' }
  /** Starts or ends with a dot (Windows drops a trailing one; a leading one hides the file). */
  | { kind: 'edgeDot' }
  | { kind: 'driveName' }
  | { kind: 'reservedName'; name: string }
  | { kind: 'tooLong'; max: number };

/**
 * What is wrong with a name, or null when it may be used; `maxChars` is 50 for folders (SPEC §9)
 * and 255 for file names. White space around the name is not a problem: it is trimmed before
 * saving (and before this check).
 */
export function nameProblem(input: string, maxChars: number = LIMITS.folderNameChars): NameProblem | null {
  const name = input.trim();
  if (name.length === 0) return { kind: 'blank' };
  const illegal = firstIllegalCharacter(name);
  if (illegal) return { kind: 'illegalCharacter', char: illegal };
  if (/^\.+$/.test(name)) return { kind: 'dotName' };
  if (name.startsWith('.') || name.endsWith('.')) return { kind: 'edgeDot' };
  if (DRIVE_FORM.test(name)) return { kind: 'driveName' };
  const reserved = reservedDeviceName(name);
  if (reserved) return { kind: 'reservedName', name: reserved };
  if ([...name].length > maxChars) return { kind: 'tooLong', max: maxChars };
  return null;
}

const WINDOWS_FORBIDDEN = new Set(['\\', ':', '*', '?', '"', '<', '>', '|']);

/**
 * One segment of a zip entry path made safe whatever name was stored: control characters
 * dropped, the characters Windows forbids in names (`\ : * ? " < > |`, a drive colon included)
 * → `_`, trailing dots and spaces dropped (Windows would), `.`/`..`/empty → `_`, a device name
 * gets `_` after it (`CON.txt` → `CON_.txt`).
 */
export function safePathSegment(segment: string): string {
  let safe = [...segment]
    .filter((c) => !isControl(c))
    // Characters Windows cannot have in a file name: an entry with one fails to extract there.
    .map((c) => (WINDOWS_FORBIDDEN.has(c) ? '_' : c))
    .join('')
    .replace(/[. ]+$/, '');
  if (safe.trim() === '') return '_';
  const reserved = reservedDeviceName(safe);
  if (reserved) safe = `${reserved}_${safe.slice(reserved.length)}`;
  return safe;
}

/**
 * A zip entry path (`Folder/Sub/name.jpg`) with every segment made safe: never absolute, never
 * climbing out with `..`, no empty folder segments. Unique names are the zip writer's concern.
 */
export function safeZipPath(path: string): string {
  const segments = path.split('/');
  const last = segments.length - 1;
  return segments
    .filter((segment, index) => index === last || segment !== '')
    .map(safePathSegment)
    .join('/');
}
