import { OperationCode } from '@dam/contract';
import { describe, expect, it } from 'vitest';
import { describeEntry } from './describe';

describe('log summaries of the open API', () => {
  it('names the access record and what changed, in the reader language', () => {
    const created = { apiAccessName: 'ERP', values: { enterpriseId: 'erp', userMail: 'a@example.com' } };
    expect(describeEntry(OperationCode.createApiAccess, created, 'ERP', 'zh')).toBe(
      'API 接入：ERP，企业 ID：erp；用户邮箱：a@example.com',
    );
    const edited = { apiAccessName: 'ERP', changes: { status: [1, 0] } };
    expect(describeEntry(OperationCode.editApiAccess, edited, 'ERP', 'en')).toContain('API access: ERP');
    expect(
      describeEntry(OperationCode.rotateApiSecret, { apiAccessName: 'ERP', graceHours: 24 }, null, 'en'),
    ).toBe('API access: ERP, old secret kept for 24 h');
    expect(
      describeEntry(OperationCode.rotateApiSecret, { apiAccessName: 'ERP', graceHours: 0 }, null, 'zh'),
    ).toBe('API 接入：ERP，旧密钥立即失效');
  });

  it('shows the enterprise and its allowed calls', () => {
    const saved = { enterpriseId: 'erp', enterpriseName: 'ERP', changes: { ratePerMinute: [600, 60] } };
    expect(describeEntry(OperationCode.saveApiEnterprise, saved, null, 'en')).toBe(
      'enterprise: ERP, calls per minute: 600 → 60',
    );
  });

  it('shows which call was made or refused, and why', () => {
    expect(
      describeEntry(
        OperationCode.openRefused,
        { reason: 'bad-signature', path: '/open/v1/tags' },
        null,
        'zh',
      ),
    ).toBe('/open/v1/tags，原因 bad-signature');
    expect(
      describeEntry(
        OperationCode.openCall,
        { method: 'GET', path: '/open/v1/folders?parentId=3' },
        null,
        'en',
      ),
    ).toBe('GET /open/v1/folders?parentId=3');
  });
});
