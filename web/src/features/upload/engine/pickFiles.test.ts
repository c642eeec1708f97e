import { describe, expect, it } from 'vitest';
import { applyFixedName, groupOf, isSystemFile, needsRename, pickFiles } from './pickFiles';

const file = (name: string, size = 10, relative = '') => {
  const f = new File([new Uint8Array(Math.min(size, 10))], name);
  Object.defineProperty(f, 'size', { value: size });
  if (relative) Object.defineProperty(f, 'webkitRelativePath', { value: relative });
  return f;
};

describe('picking files (SPEC §5)', () => {
  it('ignores system files', () => {
    expect(['.DS_Store', 'Thumb.db', 'Thumbs.db', '._photo.jpg'].every(isSystemFile)).toBe(true);
    const result = pickFiles([file('.DS_Store'), file('a.jpg')]);
    expect('files' in result && result.files.map((f) => f.fileName)).toEqual(['a.jpg']);
  });

  it('refuses more than 3000 files', () => {
    const many = Array.from({ length: 3001 }, (_, i) => file(`f${i}.jpg`));
    expect(pickFiles(many)).toEqual({ problem: { kind: 'tooMany' } });
  });

  it('refuses a file over 5 GB, naming it', () => {
    expect(pickFiles([file('big.tif', 5 * 1024 ** 3 + 1)])).toEqual({
      problem: { kind: 'tooLarge', fileName: 'big.tif' },
    });
  });

  it('names the first illegal character', () => {
    expect(pickFiles([file('a$b|c.jpg')])).toEqual({
      problem: { kind: 'badName', fileName: 'a$b|c.jpg', problem: { kind: 'illegalCharacter', char: '$' } },
    });
  });

  it('refuses names that would break an archive, in the file name or a folder of its path', () => {
    expect(pickFiles([file('CON.jpg')])).toEqual({
      problem: { kind: 'badName', fileName: 'CON.jpg', problem: { kind: 'reservedName', name: 'CON' } },
    });
    expect(pickFiles([file('a.jpg.')])).toMatchObject({ problem: { problem: { kind: 'edgeDot' } } });
    expect(pickFiles([file('x.png', 10, 'Season/nul/x.png')])).toEqual({
      problem: {
        kind: 'badName',
        fileName: 'Season/nul/x.png',
        problem: { kind: 'reservedName', name: 'nul' },
      },
    });
  });

  it('refuses the same name and format twice in one place, also across picks', () => {
    expect(pickFiles([file('A.jpg'), file('a.JPG')])).toEqual({
      problem: { kind: 'sameFile', fileName: 'a.JPG' },
    });
    const first = pickFiles([file('A.jpg', 10, 'Shoes/A.jpg')]);
    if (!('files' in first)) throw new Error('expected files');
    expect('files' in pickFiles([file('A.jpg')], first.files)).toBe(true);
    expect(pickFiles([file('A.jpg', 10, 'Shoes/A.jpg')], first.files)).toMatchObject({
      problem: { kind: 'sameFile' },
    });
  });

  it('keeps the folder of a folder upload', () => {
    const result = pickFiles([file('x.png', 10, 'Season/Running/x.png')]);
    expect('files' in result && result.files[0]?.path).toBe('Season/Running');
  });

  it('groups by suffix', () => {
    expect([groupOf('a.PSD'), groupOf('b.mp4'), groupOf('c.pdf')]).toEqual([1, 2, 3]);
  });
});

describe('uploading a new version under a fixed name (SPEC §5)', () => {
  const picked = (name: string, path = '') => ({ file: file(name), fileName: name, path, size: 10 });

  it('needs a rename only when a name differs from the fixed one', () => {
    expect(needsRename([picked('SHOE1-01.jpg'), picked('SHOE1-01.psd')], 'SHOE1-01')).toBe(false);
    expect(needsRename([picked('SHOE1-01.jpg'), picked('retouched.psd')], 'SHOE1-01')).toBe(true);
    expect(needsRename([picked('SHOE1-01.jpg', 'inner')], 'SHOE1-01')).toBe(true);
  });

  it('gives every file the fixed name with its own suffix, outside any subfolder', () => {
    const result = applyFixedName([picked('retouched.PSD', 'a/b'), picked('final v2.jpg')], 'SHOE1-01');
    expect('files' in result && result.files.map((f) => [f.path, f.fileName])).toEqual([
      ['', 'SHOE1-01.PSD'],
      ['', 'SHOE1-01.jpg'],
    ]);
  });

  it('refuses two files that would end with the same name and suffix', () => {
    expect(applyFixedName([picked('a.jpg'), picked('b.JPG')], 'SHOE1-01')).toEqual({
      problem: { kind: 'sameFile', fileName: 'SHOE1-01.JPG' },
    });
  });
});
