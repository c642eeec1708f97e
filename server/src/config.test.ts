import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('configuration from the environment', () => {
  it('runs with no variables at all on the embedded defaults', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config).toMatchObject({
      PORT: 8080,
      DATA_DIR: '/srv/app/data',
      ADMIN_EMAIL: 'admin@example.com',
      SESSION_IDLE_HOURS: 12,
      SESSION_REMEMBER_DAYS: 7,
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.ADMIN_PASSWORD).toBeUndefined();
  });

  it('treats an empty value as unset', () => {
    expect(loadConfig({ PORT: '', ADMIN_PASSWORD: '' }).PORT).toBe(8080);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['ADMIN_EMAIL', 'not-an-address'],
    ['ADMIN_PASSWORD', 'weak'],
    ['LOG_LEVEL', 'loud'],
    ['TRUST_PROXY', 'maybe'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['CLIENT_DOWNLOAD_MAC_URL', 'files.example.com/client.dmg'],
    ['CLIENT_DOWNLOAD_WIN_URL', 'ftp://files.example.com/client.exe'],
    ['SMTP_URL', 'http://mail.example.com'],
    ['SMS_PROVIDER', 'aliyun'],
    ['SMS_HTTP_HEADERS', '["x-key"]'],
    ['SMS_HTTP_HEADERS', '{"x-key": 1}'],
    ['SMS_HTTP_OK_PATTERN', '(unclosed'],
    ['TRUST_PROXY', '10.0.0.1, proxy.internal'],
    ['TRUST_PROXY', '100'],
    ['SESSION_IDLE_HOURS', '-1'],
    ['HTTP_REQUEST_TIMEOUT_MS', '5'],
    ['SHUTDOWN_DRAIN_MS', 'soon'],
    // The headers cannot take longer than the request, nor a request longer than an upload.
    ['HTTP_HEADERS_TIMEOUT_MS', '40000'],
    ['HTTP_REQUEST_TIMEOUT_MS', '400000'],
    // A guessable or mangled metrics token is refused rather than protecting nothing.
    ['METRICS_TOKEN', 'short'],
    ['METRICS_TOKEN', 'a token with spaces in it'],
    ['METRICS_PORT', '70000'],
  ])('stops on an invalid %s, naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^\\s*${name}:`, 'm'));
  });

  it('serves metrics only with a token: METRICS_PORT alone stops the start naming METRICS_TOKEN', () => {
    expect(loadConfig({}).METRICS_TOKEN).toBeUndefined();
    const token = 'abcdef0123456789abcdef';
    expect(loadConfig({ METRICS_TOKEN: token, METRICS_PORT: '9464' })).toMatchObject({
      METRICS_TOKEN: token,
      METRICS_PORT: 9464,
    });
    expect(() => loadConfig({ METRICS_PORT: '9464' })).toThrow(
      /^\s*METRICS_TOKEN: is needed when METRICS_PORT is set/m,
    );
  });

  it('reads mail and SMS settings, and wants a gateway URL for SMS_PROVIDER=http', () => {
    const defaults = loadConfig({});
    expect(defaults.SMTP_URL).toBeUndefined();
    expect(defaults.SMS_PROVIDER).toBe('log');
    expect(defaults.SMS_HTTP_HEADERS).toEqual({});
    const set = loadConfig({
      SMTP_URL: 'smtps://user:secret@mail.example.com:465',
      SMS_PROVIDER: 'http',
      SMS_HTTP_URL: 'https://sms.example.com/send?to={mobile}',
      SMS_HTTP_HEADERS: '{"Authorization":"APPCODE abc"}',
    });
    expect(set.SMTP_URL).toBe('smtps://user:secret@mail.example.com:465');
    expect(set.SMS_HTTP_HEADERS).toEqual({ Authorization: 'APPCODE abc' });
    expect(() => loadConfig({ SMS_PROVIDER: 'http' })).toThrow(/^\s*SMS_HTTP_URL:/m);
  });

  it('reads TRUST_PROXY as off, a number of proxy hops (true = one), or the proxies themselves', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).TRUST_PROXY).toBe(false);
    // `true` used to trust every hop, i.e. the leftmost X-Forwarded-For entry the client writes.
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.0/8, 192.0.2.1 ,loopback,fd00::/8' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '192.0.2.1',
      'loopback',
      'fd00::/8',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.1, proxy.internal' })).toThrow(
      /not an address or range: proxy\.internal/,
    );
  });

  it('names every invalid variable at once', () => {
    try {
      loadConfig({ PORT: 'x', LOG_LEVEL: 'y' });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toMatch(/PORT:/);
      expect((error as Error).message).toMatch(/LOG_LEVEL:/);
    }
  });
});

describe('single sign-on configuration', () => {
  const sso = {
    OIDC_ISSUER: 'https://id.example.com/realms/staff',
    OIDC_CLIENT_ID: 'dam',
    OIDC_CLIENT_SECRET: 's3cret',
  };

  it('is off without OIDC_ISSUER, and on with the issuer and its client', () => {
    expect(loadConfig({}).OIDC_ISSUER).toBeUndefined();
    expect(loadConfig(sso)).toMatchObject({
      ...sso,
      OIDC_SCOPES: 'openid email profile phone',
      OIDC_AUTO_CREATE: false,
      OIDC_TIMEOUT_MS: 10_000,
    });
    expect(
      loadConfig({ ...sso, OIDC_AUTO_CREATE: 'true', OIDC_DEFAULT_DEPT_ID: '4', OIDC_DEFAULT_ROLE_ID: '7' }),
    ).toMatchObject({ OIDC_AUTO_CREATE: true, OIDC_DEFAULT_DEPT_ID: 4, OIDC_DEFAULT_ROLE_ID: 7 });
    // http only on this machine (tests, development).
    expect(loadConfig({ ...sso, OIDC_ISSUER: 'http://127.0.0.1:18527' }).OIDC_ISSUER).toBe(
      'http://127.0.0.1:18527',
    );
  });

  it.each([
    ['OIDC_CLIENT_ID', { OIDC_ISSUER: sso.OIDC_ISSUER, OIDC_CLIENT_SECRET: 'x' }],
    ['OIDC_CLIENT_SECRET', { OIDC_ISSUER: sso.OIDC_ISSUER, OIDC_CLIENT_ID: 'dam' }],
    ['OIDC_ISSUER', { ...sso, OIDC_ISSUER: 'id.example.com' }],
    ['OIDC_ISSUER', { ...sso, OIDC_ISSUER: 'http://id.example.com' }],
    ['OIDC_SCOPES', { ...sso, OIDC_SCOPES: 'email profile' }],
    ['OIDC_AUTO_CREATE', { ...sso, OIDC_AUTO_CREATE: 'maybe' }],
    ['OIDC_DEFAULT_DEPT_ID', { ...sso, OIDC_AUTO_CREATE: 'true' }],
    ['OIDC_DEFAULT_ROLE_ID', { ...sso, OIDC_DEFAULT_ROLE_ID: 'staff' }],
    ['OIDC_TIMEOUT_MS', { ...sso, OIDC_TIMEOUT_MS: '0' }],
  ])('stops on a wrong or missing %s, naming it', (name, env) => {
    expect(() => loadConfig(env)).toThrow(new RegExp(`^\\s*${name}:`, 'm'));
  });
});
