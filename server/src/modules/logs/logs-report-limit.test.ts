import { endpoints, OperationCode } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempt } from '../../../test/call';
import { givenSignedInUser } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';
import { REPORTS_PER_MINUTE } from './service';

/**
 * add-log (SPEC §7) is limited per person as every other limit is: by counters in the database, so
 * two server processes on one database give one allowance, not one each.
 */
describe('add-log rate limit across processes', () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await createTestApp();
    // A second process: its own app on the same database and clock.
    second = await createTestApp({}, { database: first.database, clock: first.clock, keepDatabase: true });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  const report = (t: TestApp, token: string) =>
    attempt(t.app, endpoints.reportOperation, {
      token,
      body: { operatorCode: OperationCode.downloadClient, newValue: 'mac' },
    });

  it(`allows ${REPORTS_PER_MINUTE} a minute per person, whichever process each goes to`, async () => {
    const user = await givenSignedInUser(first);
    const other = await givenSignedInUser(first);
    for (let i = 0; i < REPORTS_PER_MINUTE; i++) {
      const answer = await report(i % 2 === 0 ? first : second, user.token);
      expect(answer.status, `report ${i + 1}`).toBe(200);
    }
    for (const t of [first, second]) {
      const refused = await report(t, user.token);
      expect(refused).toMatchObject({ status: 429, errorCode: 'SE_429' });
    }
    // Someone else's allowance is their own.
    expect((await report(second, other.token)).status).toBe(200);
    // The next minute gives a new allowance.
    first.clock.advance(60_000);
    expect((await report(second, user.token)).status).toBe(200);
  });
});
