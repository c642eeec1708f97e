import { describe, expect, it } from 'vitest';
import {
  createFolderRequestSchema,
  createUploadBatchSchema,
  editFileRequestSchema,
  nameProblem,
  safePathSegment,
  safeZipPath,
} from './index';

describe('names that cannot break archives (issue 9 item 7)', () => {
  it('accepts ordinary names, with surrounding white space trimmed', () => {
    for (const name of [
      '春季 2027',
      'SHOE-01 侧面',
      'a.b',
      'CONSOLE',
      'COM10',
      '10:30 shoot',
      '  Summer  ',
      'v1.2 final',
    ])
      expect(nameProblem(name), name).toBeNull();
  });

  it('refuses `.`, `..`, blank names and names starting or ending with a dot', () => {
    expect(nameProblem('..')).toEqual({ kind: 'dotName' });
    expect(nameProblem(' . ')).toEqual({ kind: 'dotName' });
    expect(nameProblem('...')).toEqual({ kind: 'dotName' });
    expect(nameProblem('   ')).toEqual({ kind: 'blank' });
    expect(nameProblem('.hidden')).toEqual({ kind: 'edgeDot' });
    expect(nameProblem('name.')).toEqual({ kind: 'edgeDot' });
    expect(nameProblem('name .')).toEqual({ kind: 'edgeDot' });
  });

  it('refuses `\\`, NUL, C0 and C1 control characters, and the SPEC characters $ | /', () => {
    expect(nameProblem('a\\b')).toEqual({ kind: 'illegalCharacter', char: '\\' });
    expect(nameProblem('a\u0000b')).toEqual({ kind: 'illegalCharacter', char: 'U+0000' });
    expect(nameProblem('a\tb')).toEqual({ kind: 'illegalCharacter', char: 'U+0009' });
    expect(nameProblem('a\u007fb')).toEqual({ kind: 'illegalCharacter', char: 'U+007F' });
    expect(nameProblem('a\u0085b')).toEqual({ kind: 'illegalCharacter', char: 'U+0085' });
    expect(nameProblem('a$b')).toEqual({ kind: 'illegalCharacter', char: '$' });
    expect(nameProblem('a/b')).toEqual({ kind: 'illegalCharacter', char: '/' });
  });

  it('refuses drive-letter forms and Windows device names, also with an extension', () => {
    expect(nameProblem('C:')).toEqual({ kind: 'driveName' });
    expect(nameProblem('d:stuff')).toEqual({ kind: 'driveName' });
    for (const name of [
      'CON',
      'prn',
      'Aux',
      'NUL',
      'COM1',
      'com9',
      'LPT1',
      'LPT9',
      'CON.txt',
      'nul.tar.gz',
      'COM¹',
    ])
      expect(nameProblem(name), name).toEqual({ kind: 'reservedName', name: name.split('.')[0] });
  });

  it('limits the length', () => {
    expect(nameProblem('x'.repeat(50))).toBeNull();
    expect(nameProblem('x'.repeat(51))).toEqual({ kind: 'tooLong', max: 50 });
    expect(nameProblem('x'.repeat(255), 255)).toBeNull();
  });

  it('is the rule of every name field: folders, uploaded files and their folders, renames', () => {
    const folder = createFolderRequestSchema.safeParse({ folderName: '..' });
    expect(folder.success).toBe(false);
    expect(folder.error?.issues[0]?.message).toBe('dotName');
    const nul = createFolderRequestSchema.safeParse({ folderName: 'a\u0000' });
    expect(nul.error?.issues[0]).toMatchObject({ message: 'illegalCharacter', params: { char: 'U+0000' } });
    const upload = (fileName: string, path = '') =>
      createUploadBatchSchema.safeParse({ uploadDetailDTOS: [{ fileName, fileSize: 1, path }] }).success;
    expect(upload('SHOE.jpg', 'Spring/Running')).toBe(true);
    expect(upload('CON.jpg')).toBe(false);
    expect(upload('SHOE.jpg.')).toBe(false);
    expect(upload('SHOE.jpg', 'Spring/../x')).toBe(false);
    expect(upload('SHOE.jpg', 'C:/x')).toBe(false);
    expect(upload('a\\b.jpg')).toBe(false);
    expect(editFileRequestSchema.safeParse({ folderDataId: 1, name: 'LPT1' }).success).toBe(false);
    expect(editFileRequestSchema.safeParse({ folderDataId: 1, name: 'SHOE2' }).success).toBe(true);
  });
});

describe('zip entry paths made safe for names already stored', () => {
  it('replaces each unsafe segment and keeps the safe ones', () => {
    expect(safePathSegment('..')).toBe('_');
    expect(safePathSegment('.')).toBe('_');
    expect(safePathSegment('')).toBe('_');
    expect(safePathSegment('C:')).toBe('C_');
    expect(safePathSegment('a\\b')).toBe('a_b');
    expect(safePathSegment('a\u0000b\u001fc\u0085')).toBe('abc');
    expect(safePathSegment('CON')).toBe('CON_');
    expect(safePathSegment('con.txt')).toBe('con_.txt');
    expect(safePathSegment('name. ')).toBe('name');
    expect(safePathSegment('SHOE 1.jpg')).toBe('SHOE 1.jpg');
    expect(safePathSegment('10:30 shoot?')).toBe('10_30 shoot_');
    expect(safePathSegment('a*b"c<d>e|f.jpg')).toBe('a_b_c_d_e_f.jpg');
    expect(safeZipPath('Archive/../x.txt')).toBe('Archive/_/x.txt');
    expect(safeZipPath('/C:/a//CON.jpg')).toBe('C_/a/CON_.jpg');
    expect(safeZipPath('a/')).toBe('a/_');
    expect(safeZipPath('a\\..\\b.txt')).toBe('a_.._b.txt');
  });
});
