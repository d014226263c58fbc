// Environment settings that used to reach a library unchecked: LOG_LEVEL (pino threw a bare Error with a
// stack), REDIS_URL's database path (ioredis sent `SELECT NaN` on every connection), and the default of
// ELICIT_RELAY_PUBLIC_URL (PRODUCT.md: http://localhost:<PORT>).
import { describe, expect, it } from 'vitest';
import { loadConfig, logLevel } from '../../src/config/index.js';
import { configErrorOf } from '../support/config.js';

describe('LOG_LEVEL', () => {
  it.each(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])('takes pino level %s', (level) => {
    expect(logLevel({ LOG_LEVEL: level })).toBe(level);
  });

  it('is info when unset or empty (Compose passes unset variables as empty)', () => {
    expect(logLevel({})).toBe('info');
    expect(logLevel({ LOG_LEVEL: '' })).toBe('info');
  });

  it.each(['verbose', 'INFO', ' info'])('refuses %j naming LOG_LEVEL and the levels', (value) => {
    const error = configErrorOf(() => logLevel({ LOG_LEVEL: value }));
    expect(error.key).toBe('LOG_LEVEL');
    expect(error.message).toContain('fatal, error, warn, info, debug, trace, silent');
  });
});

const redisUrlOf = (REDIS_URL: string) => {
  const { redis } = loadConfig({ env: { REDIS_URL }, readFile: () => undefined });
  return 'url' in redis ? redis.url : undefined;
};

describe("REDIS_URL's database", () => {
  it.each([
    'redis://127.0.0.1:6379',
    'redis://127.0.0.1:6379/',
    'redis://127.0.0.1:6379/0',
    'redis://127.0.0.1:6379/15',
    'rediss://u:p@redis.example:6380/3',
    'redis://127.0.0.1:6379?db=2',
  ])('takes %s', (url) => {
    expect(redisUrlOf(url)).toBe(url);
  });

  it.each([
    ['redis://127.0.0.1:6379/abc', 'abc'],
    ['redis://127.0.0.1:6379/-1', '-1'],
    ['redis://127.0.0.1:6379/1/2', '1/2'],
    ['redis://127.0.0.1:6379?db=x', 'x'],
  ])('refuses %s naming REDIS_URL', (url, db) => {
    const error = configErrorOf(() => redisUrlOf(url));
    expect(error.key).toBe('REDIS_URL');
    expect(error.message).toContain(`names the database "${db}"`);
  });

  it('keeps the password out of the message', () => {
    const error = configErrorOf(() => redisUrlOf('redis://:hunter2@127.0.0.1:6379/abc'));
    expect(error.message).not.toContain('hunter2');
  });
});

describe('ELICIT_RELAY_PUBLIC_URL', () => {
  const key = Buffer.alloc(32, 7).toString('base64');
  const signIn = (env: Record<string, string>) =>
    loadConfig({
      env: { ELICIT_RELAY_TOKEN_KEY: key, ...env },
      readFile: (path) =>
        path === './elicit-relay.yml'
          ? 'mcpServers:\n  tracker: { url: https://mcp.example.com/mcp, auth: { mode: oauth } }\n'
          : undefined,
    }).signIn;

  it('defaults to http://localhost:<PORT> for a server that signs people in', () => {
    expect(signIn({})?.publicUrl).toBe('http://localhost:3000');
    expect(signIn({ PORT: '8080' })?.publicUrl).toBe('http://localhost:8080');
    expect(signIn({ ELICIT_RELAY_PUBLIC_URL: '' })?.publicUrl).toBe('http://localhost:3000');
  });

  it('takes the one set, without its trailing slash', () => {
    expect(signIn({ ELICIT_RELAY_PUBLIC_URL: 'https://bot.example.com/' })?.publicUrl).toBe(
      'https://bot.example.com',
    );
  });

  it('has no default with PORT=0 (a port picked at start)', () => {
    expect(configErrorOf(() => signIn({ PORT: '0' })).key).toBe('ELICIT_RELAY_PUBLIC_URL');
  });
});
