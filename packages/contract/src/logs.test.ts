import { describe, expect, it } from 'vitest';
import {
  addLogRequestSchema,
  CLIENT_OPERATION_CODES,
  logExportQuerySchema,
  logListRequestSchema,
  OPERATION_CODES,
  OPERATION_GROUPS,
  OPERATION_KEY_OF,
  OPERATION_LABELS,
  OperationCode,
} from './logs';

describe('operation codes', () => {
  it('are unique, stable in shape, labelled in both languages and grouped once', () => {
    expect(new Set(OPERATION_CODES).size).toBe(OPERATION_CODES.length);
    for (const code of OPERATION_CODES) {
      expect(code).toMatch(/^[A-Z]{2,8}\d{2}$/);
      expect(OPERATION_LABELS.zh[code]).toBeTruthy();
      expect(OPERATION_LABELS.en[code]).toBeTruthy();
      expect(OperationCode[OPERATION_KEY_OF[code]]).toBe(code);
    }
    expect(OPERATION_GROUPS.flatMap((g) => g.codes).sort()).toEqual([...OPERATION_CODES].sort());
  });

  it('keeps the codes SPEC fixes', () => {
    expect(OperationCode.signOut).toBe('USER04');
  });
});

describe('log requests', () => {
  it('lets the browser report only the client codes', () => {
    expect(CLIENT_OPERATION_CODES).toEqual(['FILE13', 'SHARE05', 'APP01']);
    expect(addLogRequestSchema.safeParse({ operatorCode: 'FILE13', folderDataIdList: [1] }).success).toBe(
      true,
    );
    for (const operatorCode of ['FILE01', 'USER04', 'LOGIN01', 'x'])
      expect(addLogRequestSchema.safeParse({ operatorCode }).success).toBe(false);
  });

  it('pages the list by at most 100, 20 by default', () => {
    expect(logListRequestSchema.parse({})).toEqual({ pageNo: 1, pageSize: 20 });
    expect(logListRequestSchema.safeParse({ pageSize: 101 }).success).toBe(false);
  });

  it('takes the export filter from a query string', () => {
    expect(logExportQuerySchema.parse({ operatorCodes: 'FILE01, FILE09', fileName: '' })).toEqual({
      operatorCodes: ['FILE01', 'FILE09'],
    });
    expect(logExportQuerySchema.safeParse({ operatorCodes: 'FILE01,NOPE01' }).success).toBe(false);
  });
});
