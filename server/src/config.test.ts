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
    ['SESSION_IDLE_HOURS', '-1'],
    ['HTTP_REQUEST_TIMEOUT_MS', '5'],
    ['SHUTDOWN_DRAIN_MS', 'soon'],
    // The headers cannot take longer than the request, nor a request longer than an upload.
    ['HTTP_HEADERS_TIMEOUT_MS', '40000'],
    ['HTTP_REQUEST_TIMEOUT_MS', '400000'],
  ])('stops on an invalid %s, naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^\\s*${name}:`, 'm'));
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
