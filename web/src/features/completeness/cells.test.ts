import type { CompletenessColumn } from '@dam/contract';
import { describe, expect, it } from 'vitest';
import { acceptOf, filesForView, isOfFormat, nameForView } from './cells';

const side: CompletenessColumn = { viewId: 2, viewName: 'Side', code: 'side', format: 'jpg' };
const master: CompletenessColumn = { viewId: 6, viewName: 'Master', code: null, format: 'psd' };

describe('completeness cells', () => {
  it('names an upload for the view it fills, keeping its suffix', () => {
    expect(nameForView('IMG_0042.JPG', 'SHOE101-01', side)).toBe('SHOE101-01_side.JPG');
    expect(nameForView('shoe101-01_side2.jpg', 'SHOE101-01', side)).toBe('shoe101-01_side2.jpg');
    // Another article's side view is renamed for this one.
    expect(nameForView('SHOE999-01_side.jpg', 'SHOE101-01', side)).toBe('SHOE101-01_side.jpg');
    expect(nameForView('SHOE101-01_front.jpg', 'SHOE101-01', side)).toBe('SHOE101-01_side.jpg');
    // The any-file view keeps every name.
    expect(nameForView('design final.psd', 'SHOE101-01', master)).toBe('design final.psd');
  });

  it('reads Chinese view codes as the report does (issue 39 item 5)', () => {
    const front: CompletenessColumn = { viewId: 1, viewName: '正面', code: '正面', format: 'jpg' };
    expect(nameForView('SHOE101-01_正面2.jpg', 'SHOE101-01', front)).toBe('SHOE101-01_正面2.jpg');
    expect(nameForView('SHOE101-01 正面.jpg', 'SHOE101-01', front)).toBe('SHOE101-01 正面.jpg');
    expect(nameForView('SHOE101-01_侧面.jpg', 'SHOE101-01', front)).toBe('SHOE101-01_正面.jpg');
    expect(nameForView('SHOE101-01_Side.jpg', 'SHOE101-01', side)).toBe('SHOE101-01_Side.jpg');
  });

  it('flattens picked files out of folders', () => {
    const file = new File(['x'], 'a.jpg');
    expect(filesForView([{ file, fileName: 'a.jpg', path: 'Shoes/2026', size: 1 }], 'AB12', side)).toEqual([
      { file, fileName: 'AB12_side.jpg', path: '', size: 1 },
    ]);
  });

  it('offers and accepts the column format, jpeg as jpg', () => {
    expect(acceptOf('jpg')).toBe('.jpg,.jpeg');
    expect(acceptOf('psd')).toBe('.psd');
    expect(isOfFormat('a.JPEG', 'jpg')).toBe(true);
    expect(isOfFormat('a.png', 'jpg')).toBe(false);
    expect(isOfFormat('jpg', 'jpg')).toBe(false);
  });
});
