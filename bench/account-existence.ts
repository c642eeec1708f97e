// Account-existence benchmark (issue 38 item 3 "Answers never tell whether an account exists"):
// for each signed-out call that takes an identifier from a stranger, 200 calls with the identifier
// of a live account and 200 with one nobody has, alternating, through the whole application
// (Fastify inject: routes, services, the real database, a real SMS gateway and SMTP server as
// peers, the job queue as in production). It prints the median and p95 of each, and the answers
// seen, which must be the same for both.
//   npx tsx bench/account-existence.ts                      (embedded PGlite)
//   TEST_DB=postgres TEST_DATABASE_URL=postgres://… npx tsx bench/account-existence.ts
// BENCH_CALLS=50 makes fewer calls. Between two calls the bench waits until what the known
// call sent has arrived (the code at the gateway, the mail at the SMTP server), so each call is
// measured on a quiet server, as a stranger probing one identifier at a time would see it.
import { endpoints, SmsPurpose } from '@dam/contract';
import { afterAnswerWorkSettled } from '../server/src/modules/sms/after-answer';
import { attempt } from '../server/test/call';
import { givenUser, uniqueMobile } from '../server/test/factories';
import { createTestApp } from '../server/test/harness';
import { startSmsGateway } from '../server/test/peers/sms-gateway';
import { startSmtpServer } from '../server/test/peers/smtp';

const CALLS = Number(process.env.BENCH_CALLS ?? 200);
const HOUR_AND_A_MINUTE = 61 * 60_000;
/** A pause after each call has settled, so work it left behind does not land on the next. */
const QUIET_MS = 15;

const gateway = await startSmsGateway();
const smtp = await startSmtpServer();
const t = await createTestApp(
  {
    LOGIN_RATE_LIMIT: '10000',
    PUBLIC_URL: 'http://dam.example.test',
    SMTP_URL: smtp.url,
    MAIL_FROM: 'DAM <dam@example.test>',
    SMS_PROVIDER: 'http',
    SMS_HTTP_URL: `${gateway.url}/send?to={mobile}`,
    SMS_HTTP_BODY: '{"phone":"{mobile}","text":"{code}"}',
    SMS_HTTP_OK_PATTERN: '"code":"OK"',
  },
  { jobs: true },
);

const knownMobile = uniqueMobile();
const known = await givenUser(t.database, { mobile: knownMobile });
const unknownMobile = uniqueMobile();
const unknownEmail = `nobody-${Date.now()}@example.com`;

type Kind = 'known' | 'unknown';
interface Probe {
  name: string;
  /** One call (or sequence) whose time is measured; answers what the caller saw. */
  call(kind: Kind): Promise<string>;
  /** Waits until what a known call caused has arrived. */
  settle?(kind: Kind): Promise<void>;
}

const answerOf = (a: { status: number; errorCode: string | null; success: boolean; result?: unknown }) =>
  `${a.status} ${a.success ? 'ok' : a.errorCode}${a.success ? ` ${JSON.stringify(a.result)}` : ''}`;

async function until(done: () => boolean, what: string): Promise<void> {
  const start = Date.now();
  while (!done()) {
    if (Date.now() - start > 10_000) throw new Error(`${what} never arrived`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

const probes: Probe[] = [
  {
    name: 'send-code (first call)',
    call: async (kind) =>
      answerOf(
        await attempt(t.app, endpoints.sendSignInCode, {
          body: { mobile: kind === 'known' ? knownMobile : unknownMobile, purpose: SmsPurpose.signIn },
        }),
      ),
    settle: async (kind) => {
      if (kind === 'known') await until(() => sentTo(knownMobile) >= expectedSms, 'SMS');
    },
  },
  {
    name: 'send-code (again within 60 s)',
    call: async (kind) =>
      answerOf(
        await attempt(t.app, endpoints.sendSignInCode, {
          body: { mobile: kind === 'known' ? knownMobile : unknownMobile, purpose: SmsPurpose.signIn },
        }),
      ),
  },
  {
    name: 'email-reset-pwd',
    call: async (kind) =>
      answerOf(
        await attempt(t.app, endpoints.emailResetPassword, {
          body: { email: kind === 'known' ? known.email : unknownEmail },
        }),
      ),
    settle: async (kind) => {
      if (kind === 'known') await smtp.nextMailTo(known.email);
    },
  },
  {
    name: 'login, wrong password',
    call: async (kind) =>
      answerOf(
        await attempt(t.app, endpoints.login, {
          body: { userName: kind === 'known' ? known.email : unknownEmail, password: 'Wr0ng!pass' },
        }),
      ),
  },
  {
    name: 'login, wrong SMS code',
    call: async (kind) =>
      answerOf(
        await attempt(t.app, endpoints.login, {
          body: { mobile: kind === 'known' ? knownMobile : unknownMobile, messageCode: '000000' },
        }),
      ),
  },
  {
    name: 'login-reset-pwd, wrong SMS code',
    call: async (kind) =>
      answerOf(
        await attempt(t.app, endpoints.loginResetPassword, {
          body: {
            mobile: kind === 'known' ? knownMobile : unknownMobile,
            messageCode: '000000',
            password: 'N3w!pass',
            reEnterPassword: 'N3w!pass',
          },
        }),
      ),
  },
];

const sentTo = (mobile: string) => gateway.requests.filter((r) => r.url.includes(mobile)).length;
let expectedSms = 0;

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;

const timed = async (run: () => Promise<string>) => {
  const start = process.hrtime.bigint();
  const answer = await run();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, answer };
};

// Warm-up: every path once, unmeasured.
for (const kind of ['known', 'unknown'] as const) {
  for (const probe of probes) {
    if (kind === 'known' && probe.name.startsWith('send-code (first')) expectedSms += 1;
    await probe.call(kind);
    await probe.settle?.(kind);
  }
  t.clock.advance(HOUR_AND_A_MINUTE);
}

const times: Record<string, Record<Kind, number[]>> = {};
const answers: Record<string, Record<Kind, Set<string>>> = {};
for (const probe of probes) {
  times[probe.name] = { known: [], unknown: [] };
  answers[probe.name] = { known: new Set(), unknown: new Set() };
}
// Rounds alternate known and unknown; each probe (and the send-code pair) in its own pass, so what
// one call leaves running (a mail job marking its mail sent) is over before the next is measured.
const passes = [probes.slice(0, 2), ...probes.slice(2).map((probe) => [probe])];
for (const pass of passes) {
  for (let i = 0; i < CALLS; i++) {
    for (const kind of ['known', 'unknown'] as const) {
      // A fresh hour: every limit starts afresh, so each round sees the same state.
      t.clock.advance(HOUR_AND_A_MINUTE);
      for (const probe of pass) {
        if (kind === 'known' && probe.name.startsWith('send-code (first')) expectedSms += 1;
        const { ms, answer } = await timed(() => probe.call(kind));
        await probe.settle?.(kind);
        await afterAnswerWorkSettled();
        await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
        times[probe.name]?.[kind].push(ms);
        answers[probe.name]?.[kind].add(answer);
      }
    }
  }
}

console.log(`database: ${t.database.kind}; ${CALLS} calls each, times in ms (median / p95)`);
console.log(
  '| call | known median | known p95 | unknown median | unknown p95 | answers known | answers unknown |',
);
console.log('|---|---|---|---|---|---|---|');
for (const probe of probes) {
  const row = times[probe.name];
  const seen = answers[probe.name];
  if (!row || !seen) continue;
  const k = [...row.known].sort((a, b) => a - b);
  const u = [...row.unknown].sort((a, b) => a - b);
  console.log(
    `| ${probe.name} | ${quantile(k, 0.5).toFixed(1)} | ${quantile(k, 0.95).toFixed(1)} | ${quantile(u, 0.5).toFixed(1)} | ${quantile(u, 0.95).toFixed(1)} | ${[...seen.known].join(', ')} | ${[...seen.unknown].join(', ')} |`,
  );
}
await t.close();
await gateway.close();
await smtp.close();
process.exit(0);
