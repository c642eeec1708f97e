import { describe, expect, it } from 'vitest';
import { droppedFiles } from './droppedFiles';
import { pickFiles } from './pickFiles';

/** A file or folder entry as webkitGetAsEntry gives them; folders answer in batches of `batch`. */
type Tree = { [name: string]: Tree | string };
function entry(name: string, node: Tree | string, batch = 100): unknown {
  if (typeof node === 'string') {
    const file = new File([node], name);
    return {
      isFile: true,
      isDirectory: false,
      name,
      file: (ok: (f: File) => void) => setTimeout(() => ok(file)),
    };
  }
  const children = Object.entries(node).map(([n, child]) => entry(n, child, batch));
  return {
    isFile: false,
    isDirectory: true,
    name,
    createReader() {
      let at = 0;
      return {
        readEntries(ok: (entries: unknown[]) => void) {
          const part = children.slice(at, at + batch);
          at += part.length;
          setTimeout(() => ok(part));
        },
      };
    },
  };
}

function transfer(entries: unknown[], loose: File[] = []): DataTransfer {
  const items = [
    ...entries.map((e) => ({ kind: 'file', webkitGetAsEntry: () => e, getAsFile: () => null })),
    ...loose.map((f) => ({ kind: 'file', webkitGetAsEntry: () => null, getAsFile: () => f })),
  ];
  return { items, files: loose, types: ['Files'] } as unknown as DataTransfer;
}

describe('dropped files and folders (issue 39: drag and drop)', () => {
  it('walks dropped folders, keeping each file’s folders below the dropped one', async () => {
    const season = entry('SS27', { 'a.jpg': 'a', Running: { 'b.png': 'b', Trail: { 'c.mp4': 'c' } } });
    const files = await droppedFiles(transfer([season, entry('loose.pdf', 'p')]));
    expect(files.map((f) => f.relativePath).sort()).toEqual([
      'SS27/Running/Trail/c.mp4',
      'SS27/Running/b.png',
      'SS27/a.jpg',
      'loose.pdf',
    ]);
    const picked = pickFiles(files);
    expect('files' in picked && picked.files.map((f) => [f.path, f.fileName])).toEqual([
      ['SS27', 'a.jpg'],
      ['SS27/Running', 'b.png'],
      ['SS27/Running/Trail', 'c.mp4'],
      ['', 'loose.pdf'],
    ]);
  });

  it('reads a folder’s entries until the reader answers an empty batch (Chromium gives 100 at a time)', async () => {
    const many = Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`f${i}.jpg`, 'x']));
    const files = await droppedFiles(transfer([entry('big', many, 100)]));
    expect(files).toHaveLength(250);
    expect(new Set(files.map((f) => f.relativePath)).size).toBe(250);
  });

  it('takes the files of a drop without entries as they are', async () => {
    const a = new File(['a'], 'a.jpg');
    expect(await droppedFiles(transfer([], [a]))).toEqual([{ file: a, relativePath: 'a.jpg' }]);
    const bare = { items: [], files: [a], types: ['Files'] } as unknown as DataTransfer;
    expect(await droppedFiles(bare)).toEqual([{ file: a, relativePath: 'a.jpg' }]);
  });

  it('leaves system files of a dropped folder out and refuses a bad folder name', async () => {
    const files = await droppedFiles(transfer([entry('Look', { '.DS_Store': 'x', 'a.jpg': 'a' })]));
    const picked = pickFiles(files);
    expect('files' in picked && picked.files.map((f) => f.fileName)).toEqual(['a.jpg']);
    const bad = await droppedFiles(transfer([entry('CON', { 'a.jpg': 'a' })]));
    expect(pickFiles(bad)).toMatchObject({ problem: { kind: 'badName', fileName: 'CON/a.jpg' } });
  });
});
