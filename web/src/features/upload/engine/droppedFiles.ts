/**
 * The files of a drop (issue 39: drag and drop), folders walked: each file with the folders it sat
 * in below what was dropped, the way a folder picked with the folder upload has them
 * (`webkitRelativePath`: `Season/Running/a.jpg`).
 */

export interface DroppedFile {
  file: File;
  /** `Season/Running/a.jpg` for a file inside a dropped folder; the bare name for a dropped file. */
  relativePath: string;
}

/** The parts of the File and Directory Entries API a drop gives (webkitGetAsEntry). */
interface EntryLike {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  file?: (success: (file: File) => void, failure?: (error: unknown) => void) => void;
  createReader?: () => {
    readEntries: (success: (entries: EntryLike[]) => void, failure?: (error: unknown) => void) => void;
  };
}

/** Whether a drag carries files from outside the page (not text or an element of the page). */
export function dragHasFiles(transfer: DataTransfer | null): boolean {
  return Boolean(transfer && [...transfer.types].includes('Files'));
}

/** Stops walking a dropped tree past this many files: the upload refuses more anyway (3,000). */
const WALK_LIMIT = 10_000;

/**
 * Reads what was dropped. Entries must be taken from the items during the drop event itself (the
 * browser empties the transfer after it), so this reads them first and walks folders afterwards.
 */
export async function droppedFiles(transfer: DataTransfer): Promise<DroppedFile[]> {
  const items = [...(transfer.items ?? [])].filter((item) => item.kind === 'file');
  const entries = items.map((item) => ({
    entry: (item.webkitGetAsEntry?.() ?? null) as EntryLike | null,
    file: item.getAsFile(),
  }));
  if (entries.length === 0) return [...transfer.files].map((file) => ({ file, relativePath: file.name }));
  const out: DroppedFile[] = [];
  for (const { entry, file } of entries) {
    if (entry) await walk(entry, '', out);
    else if (file) out.push({ file, relativePath: file.name });
  }
  return out;
}

async function walk(entry: EntryLike, parent: string, out: DroppedFile[]): Promise<void> {
  if (out.length >= WALK_LIMIT) return;
  const path = parent ? `${parent}/${entry.name}` : entry.name;
  if (entry.isFile && entry.file) {
    const read = entry.file.bind(entry);
    const file = await new Promise<File>((resolve, reject) => read(resolve, reject));
    out.push({ file, relativePath: path });
    return;
  }
  if (!entry.isDirectory || !entry.createReader) return;
  const reader = entry.createReader();
  // readEntries answers in batches (100 in Chromium) until it answers an empty one.
  for (;;) {
    const batch = await new Promise<EntryLike[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return;
    for (const child of batch) await walk(child, path, out);
    if (out.length >= WALK_LIMIT) return;
  }
}
