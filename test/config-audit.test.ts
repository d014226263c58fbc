import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/index.js';
import { allowListOf } from '../src/webhooks/index.js';

const withFile = (text: string) => ({
  env: { ELICIT_RELAY_CONFIG: 'c.yml' },
  readFile: (path: string) => (path === 'c.yml' ? text : undefined),
});

describe('the audit settings', () => {
  it('default to no content, 30 days in Redis and no PostgreSQL', () => {
    expect(loadConfig({ env: {}, readFile: () => undefined }).audit).toEqual({
      content: 'none',
      retentionMs: 30 * 86_400_000,
    });
  });

  it('read audit.content, audit.retention and AUDIT_DATABASE_URL', () => {
    const sources = withFile('audit:\n  content: fields\n  retention: 90d\n');
    const env = { ...sources.env, AUDIT_DATABASE_URL: 'postgres://u@db:5432/audit' };
    expect(loadConfig({ ...sources, env }).audit).toEqual({
      content: 'fields',
      retentionMs: 90 * 86_400_000,
      databaseUrl: 'postgres://u@db:5432/audit',
    });
  });

  it.each([
    ['audit:\n  content: some\n', 'audit.content'],
    ['audit:\n  retention: soon\n', 'audit.retention'],
    ['audit: [1]\n', 'audit'],
  ])('refuse %j naming %s', (text, key) => {
    let error: unknown;
    try {
      loadConfig(withFile(text));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ key });
  });

  it('refuse an AUDIT_DATABASE_URL that is not postgres://', () => {
    const env = { AUDIT_DATABASE_URL: 'mysql://db/audit' };
    expect(() => loadConfig({ env, readFile: () => undefined })).toThrow(/AUDIT_DATABASE_URL/);
  });
});

describe('the webhook hosts', () => {
  it('become the allow-list, and a bad entry stops start-up naming it', () => {
    expect(allowListOf(['ci.example.com:8443', 'hooks.example.com'])).toEqual([
      { host: 'ci.example.com', port: 8443 },
      { host: 'hooks.example.com' },
    ]);
    expect(() => allowListOf(['https://x'])).toThrow(/ELICIT_RELAY_WEBHOOK_HOSTS: "https:\/\/x"/);
  });
});
