import type { UploadRecord } from '@dam/contract';
import { describe, expect, it } from 'vitest';
import { matchRepickedFiles } from './resume';

const record = (id: number, fileName: string, fileSize: number, fileInfo: number | null): UploadRecord => ({
  id,
  batchNum: 'b',
  fileName,
  fileFormat: fileName.split('.').pop() ?? '',
  fileSize,
  fileInfo,
  path: '/',
  status: 1,
  uploadSchedule: 40,
  error: null,
  url: `2026/11/23/${id}.jpg`,
  folderDataId: null,
  previewStatus: 0,
  createdAt: '2026-11-23T08:00:00.000Z',
  completedAt: null,
  mailNotice: null,
});
const file = (name: string, size: number, lastModified: number) => {
  const f = new File([new Uint8Array(1)], name, { lastModified });
  Object.defineProperty(f, 'size', { value: size });
  return f;
};

describe('matching re-picked files to interrupted uploads', () => {
  it('pairs by size and last-modified time, even under another name (a renamed new version)', () => {
    const records = [record(1, 'SHOE1-01.jpg', 500, 1000), record(2, 'b.png', 700, 2000)];
    const { matched, unmatched } = matchRepickedFiles(
      [file('b.png', 700, 2000), file('retouched.jpg', 500, 1000), file('other.jpg', 500, 9999)],
      records,
    );
    expect(matched.map((m) => [m.record.id, m.file.name])).toEqual([
      [2, 'b.png'],
      [1, 'retouched.jpg'],
    ]);
    expect(unmatched.map((f) => f.name)).toEqual(['other.jpg']);
  });

  it('falls back to name and size when no time was recorded', () => {
    const { matched, unmatched } = matchRepickedFiles(
      [file('a.jpg', 500, 5), file('a.jpg', 501, 5)],
      [record(3, 'a.jpg', 500, null)],
    );
    expect(matched.map((m) => m.record.id)).toEqual([3]);
    expect(unmatched).toHaveLength(1);
  });

  it('gives each record one file, preferring the one with the same name', () => {
    const records = [record(4, 'x.jpg', 10, 7), record(5, 'y.jpg', 10, 7)];
    const { matched } = matchRepickedFiles([file('y.jpg', 10, 7), file('x.jpg', 10, 7)], records);
    expect(matched.map((m) => [m.record.id, m.file.name])).toEqual([
      [5, 'y.jpg'],
      [4, 'x.jpg'],
    ]);
  });
});
