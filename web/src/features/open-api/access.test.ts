import {
  API_ACCESS_DESCRIPTION_MAX_CHARS,
  API_ACCESS_NAME_MAX_CHARS,
  type ApiAccessSummary,
  OPEN_API_RATE_MAX,
  saveApiAccessRequestSchema,
} from '@dam/contract';
import { describe, expect, it } from 'vitest';
import {
  accessFieldProblem,
  accessFormOf,
  accessRequest,
  callChoices,
  emptyStep,
  enterpriseFieldProblem,
  graceHoursProblem,
  lastDays,
  orderedCalls,
  secretHintText,
  statusToggleRequest,
  usageByCall,
  usageByDay,
} from './access';

const RECORD: ApiAccessSummary = {
  id: 7,
  name: '电商平台',
  description: '商品图同步',
  enterpriseId: 'shop_cn',
  enterpriseName: '电商',
  userMail: 'ops@example.com',
  userName: '运营',
  status: 1,
  keyId: 'dak_ABCDEFGHIJKLMNOPQRST',
  secretHint: 'x9Zq',
  previousValidUntil: null,
  lastUsedAt: null,
  lastUsedIp: null,
  callsToday: 0,
  calls30d: 0,
  failures30d: 0,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
};

describe('the status switch', () => {
  it("sends the record's own fields with only the status flipped", () => {
    expect(statusToggleRequest(RECORD, false)).toEqual({
      id: 7,
      name: '电商平台',
      description: '商品图同步',
      enterpriseId: 'shop_cn',
      userMail: 'ops@example.com',
      status: 0,
    });
    expect(statusToggleRequest({ ...RECORD, status: 0 }, true)).toMatchObject({ id: 7, status: 1 });
  });

  it('sends what the contract accepts', () => {
    expect(saveApiAccessRequestSchema.safeParse(statusToggleRequest(RECORD, false)).success).toBe(true);
  });
});

describe('the access dialog', () => {
  it('requires name, description and enterprise (SPEC §5) and a mail that looks like one', () => {
    expect(accessFieldProblem('name', '  ')).toBe('required');
    expect(accessFieldProblem('description', undefined)).toBe('required');
    expect(accessFieldProblem('enterpriseId', undefined)).toBe('required');
    expect(accessFieldProblem('userMail', '')).toBe('required');
    expect(accessFieldProblem('userMail', 'ops@')).toBe('email');
    expect(accessFieldProblem('userMail', 'ops@example')).toBe('email');
    expect(accessFieldProblem('userMail', 'a b@example.com')).toBe('email');
    expect(accessFieldProblem('userMail', ' Ops@Example.com ')).toBeNull();
    expect(accessFieldProblem('name', '电商')).toBeNull();
  });

  it("keeps to the contract's lengths", () => {
    expect(accessFieldProblem('name', 'x'.repeat(API_ACCESS_NAME_MAX_CHARS))).toBeNull();
    expect(accessFieldProblem('name', 'x'.repeat(API_ACCESS_NAME_MAX_CHARS + 1))).toBe('tooLong');
    expect(accessFieldProblem('description', 'x'.repeat(API_ACCESS_DESCRIPTION_MAX_CHARS))).toBeNull();
    expect(accessFieldProblem('description', 'x'.repeat(API_ACCESS_DESCRIPTION_MAX_CHARS + 1))).toBe(
      'tooLong',
    );
  });

  it('creates without an id and edits with one, trimmed and the mail in lower case', () => {
    const values = {
      name: ' ERP ',
      description: ' 同步 ',
      enterpriseId: 'erp',
      userMail: ' A@B.COM ',
      on: false,
    };
    expect(accessRequest(values, null)).toEqual({
      name: 'ERP',
      description: '同步',
      enterpriseId: 'erp',
      userMail: 'a@b.com',
      status: 0,
    });
    expect(accessRequest(values, 3)).toMatchObject({ id: 3 });
    // What the client lets through, the contract accepts.
    expect(saveApiAccessRequestSchema.safeParse(accessRequest(values, null)).success).toBe(true);
  });

  it('starts a new record switched on, and an edit from the record', () => {
    expect(accessFormOf(null)).toEqual({
      name: '',
      description: '',
      enterpriseId: undefined,
      userMail: '',
      on: true,
    });
    expect(accessFormOf({ ...RECORD, status: 0 })).toMatchObject({ enterpriseId: 'shop_cn', on: false });
  });
});

describe('keys and rotation', () => {
  it("shows only a secret's hint", () => {
    expect(secretHintText('x9Zq')).toBe('••••x9Zq');
    expect(secretHintText('')).toBe('—');
  });

  it('allows 0 to 168 whole hours of grace', () => {
    expect(graceHoursProblem(0)).toBeNull();
    expect(graceHoursProblem(168)).toBeNull();
    expect(graceHoursProblem(169)).toBe('range');
    expect(graceHoursProblem(-1)).toBe('range');
    expect(graceHoursProblem(1.5)).toBe('range');
    expect(graceHoursProblem(null)).toBe('required');
  });
});

describe('the enterprise dialog', () => {
  it('checks the ID pattern, the name and the rate', () => {
    expect(enterpriseFieldProblem('enterpriseId', '')).toBe('required');
    expect(enterpriseFieldProblem('enterpriseId', 'e')).toBe('pattern');
    expect(enterpriseFieldProblem('enterpriseId', 'erp cn')).toBe('pattern');
    expect(enterpriseFieldProblem('enterpriseId', 'x'.repeat(33))).toBe('pattern');
    expect(enterpriseFieldProblem('enterpriseId', 'shop_cn-2')).toBeNull();
    expect(enterpriseFieldProblem('name', ' ')).toBe('required');
    expect(enterpriseFieldProblem('name', 'x'.repeat(51))).toBe('tooLong');
    expect(enterpriseFieldProblem('ratePerMinute', null)).toBeNull();
    expect(enterpriseFieldProblem('ratePerMinute', 0)).toBe('range');
    expect(enterpriseFieldProblem('ratePerMinute', OPEN_API_RATE_MAX)).toBeNull();
    expect(enterpriseFieldProblem('ratePerMinute', OPEN_API_RATE_MAX + 1)).toBe('range');
  });

  it('orders the calls as the contract does and drops unknown ones', () => {
    expect(orderedCalls(['tags.list', 'nope', 'assets.byArtNums'])).toEqual([
      'assets.byArtNums',
      'tags.list',
    ]);
  });
});

describe('the allowed calls', () => {
  it('offers one choice per code, with every endpoint it covers', () => {
    const choices = callChoices([
      { code: 'uploads', method: 'POST', path: '/open/v1/uploads' },
      { code: 'assets.get', method: 'GET', path: '/open/v1/assets/:id' },
      { code: 'uploads', method: 'POST', path: '/open/v1/uploads/:id/complete' },
    ]);
    expect(choices).toEqual([
      { code: 'assets.get', endpoints: [{ method: 'GET', path: '/open/v1/assets/:id' }] },
      {
        code: 'uploads',
        endpoints: [
          { method: 'POST', path: '/open/v1/uploads' },
          { method: 'POST', path: '/open/v1/uploads/:id/complete' },
        ],
      },
    ]);
  });
});

describe('use over 30 days', () => {
  const today = new Date('2026-11-26T23:30:00.000Z');

  it('lists the days oldest first, ending today (UTC)', () => {
    const days = lastDays(today, 30);
    expect(days).toHaveLength(30);
    expect(days[0]).toBe('2026-10-28');
    expect(days[29]).toBe('2026-11-26');
  });

  it('adds up the calls of each day, days without calls included', () => {
    const usage = [
      { day: '2026-11-26', callCode: 'assets.get', calls: 5, failures: 1 },
      { day: '2026-11-26', callCode: 'tags.list', calls: 2, failures: 0 },
      { day: '2026-11-20', callCode: 'assets.get', calls: 3, failures: 3 },
      // Older than the window: left out.
      { day: '2026-09-01', callCode: 'assets.get', calls: 100, failures: 0 },
    ];
    const days = usageByDay(usage, today, 30);
    expect(days).toHaveLength(30);
    expect(days.at(-1)).toEqual({ day: '2026-11-26', calls: 7, failures: 1 });
    expect(days.find((d) => d.day === '2026-11-20')).toEqual({ day: '2026-11-20', calls: 3, failures: 3 });
    expect(days.reduce((sum, d) => sum + d.calls, 0)).toBe(10);
    expect(usageByCall(usage)).toEqual([
      { callCode: 'assets.get', calls: 108, failures: 4 },
      { callCode: 'tags.list', calls: 2, failures: 0 },
    ]);
  });
});

describe('the empty screen', () => {
  it('says to make an enterprise first, then a record', () => {
    expect(emptyStep(0, 0)).toBe('enterprise');
    expect(emptyStep(2, 0)).toBe('record');
    expect(emptyStep(2, 1)).toBeNull();
  });
});
