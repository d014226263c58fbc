// The API's settings, read once with the rest of the configuration: ELICIT_RELAY_API_TOKEN is the `default`
// client, the file adds named clients, and mistakes name the key and the fix.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { configErrorOf } from '../support/config.js';

const load = (env: Record<string, string>, file?: object) =>
  loadConfig({
    env: { ELICIT_RELAY_CONFIG: 'c.json', ...env },
    readFile: () => (file ? JSON.stringify(file) : '{}'),
  }).api;

describe('the API configuration', () => {
  it('is off with no client, and the token is the default client with every right', () => {
    expect(load({})).toEqual({ clients: [], webhookHosts: [] });
    expect(load({ ELICIT_RELAY_API_TOKEN: 't0' }).clients).toEqual([{ name: 'default', token: 't0' }]);
  });

  it('adds named clients from the file with their token from the environment, servers, targets and rate', () => {
    const api = load(
      {
        CI_TOKEN: 'secret-ci',
        ELICIT_RELAY_WEBHOOK_HOSTS: 'Hooks.Example.com, 127.0.0.1:8080',
        ELICIT_RELAY_WEBHOOK_SECRET: 'whs',
      },
      {
        api: {
          clients: { ci: { token: '${CI_TOKEN}', servers: ['github'], targets: ['C1'], ratePerMinute: 30 } },
        },
      },
    );
    expect(api).toEqual({
      clients: [{ name: 'ci', token: 'secret-ci', servers: ['github'], targets: ['C1'], ratePerMinute: 30 }],
      webhookHosts: ['hooks.example.com', '127.0.0.1:8080'],
      webhookSecret: 'whs',
    });
  });

  it('names the key and the fix for mistakes', () => {
    expect(configErrorOf(() => load({}, { api: { clients: { ci: {} } } })).key).toBe('api.clients.ci.token');
    expect(configErrorOf(() => load({}, { api: { clients: { ci: { token: '${NOPE}' } } } })).key).toBe(
      'api.clients.ci.token',
    );
    const rate = configErrorOf(() =>
      load({}, { api: { clients: { ci: { token: 'a', ratePerMinute: 0 } } } }),
    );
    expect(rate.key).toBe('api.clients.ci.ratePerMinute');
    const same = configErrorOf(() =>
      load({ ELICIT_RELAY_API_TOKEN: 'a' }, { api: { clients: { ci: { token: 'a' } } } }),
    );
    expect(same.message).toMatch(/same as default's/);
    expect(configErrorOf(() => load({ ELICIT_RELAY_WEBHOOK_HOSTS: 'http://x' })).key).toBe(
      'ELICIT_RELAY_WEBHOOK_HOSTS',
    );
    expect(configErrorOf(() => load({ ELICIT_RELAY_REDELIVER_AFTER: '10ms' })).key).toBe(
      'ELICIT_RELAY_REDELIVER_AFTER',
    );
    expect(configErrorOf(() => load({ ELICIT_RELAY_WEBHOOK_RETRY_BASE: 'soon' })).key).toBe(
      'ELICIT_RELAY_WEBHOOK_RETRY_BASE',
    );
  });

  it("refuses a file client named `default`, the name that reads every client's audit trail, with or without ELICIT_RELAY_API_TOKEN", () => {
    const limited = { token: 'file-token', targets: ['U1'], servers: ['github'] };
    const envs: Record<string, string>[] = [{}, { ELICIT_RELAY_API_TOKEN: 't0' }];
    for (const env of envs) {
      const error = configErrorOf(() => load(env, { api: { clients: { default: limited } } }));
      expect(error.key).toBe('api.clients.default');
      expect(error.message).toMatch(/ELICIT_RELAY_API_TOKEN/);
    }
  });

  it('reads the redelivery age and the webhook retry base as durations in ms, unset by default', () => {
    const api = load({ ELICIT_RELAY_REDELIVER_AFTER: '2s', ELICIT_RELAY_WEBHOOK_RETRY_BASE: '250ms' });
    expect(api).toMatchObject({ redeliverAfterMs: 2000, webhookRetryBaseMs: 250 });
  });
});

/** A bot installed in several Slack workspaces (OAuth distribution). */
const SEVERAL = {
  SLACK_CLIENT_ID: '1111.2222',
  SLACK_CLIENT_SECRET: 'client-secret-for-tests',
  SLACK_STATE_SECRET: 'state-secret-of-sixteen-plus',
  SLACK_SIGNING_SECRET: 'signing-secret',
};

describe('the gateway person', () => {
  const env = { ELICIT_RELAY_API_TOKEN: 't0', CI: 'tci' };

  it('is api.gateway.as for every client, and a client may name its own', () => {
    const api = load(env, {
      api: { gateway: { as: 'U0OPS' }, clients: { ci: { token: '${CI}', as: 'W0CI' } } },
    });
    expect(api.gatewayAs).toBe('U0OPS');
    expect(api.clients.find((c) => c.name === 'ci')?.as).toBe('W0CI');
    expect(api.clients.find((c) => c.name === 'default')).not.toHaveProperty('as');
  });

  it('may name their workspace, which a bot installed in several requires, naming the key', () => {
    const api = load(env, {
      api: {
        gateway: { as: { user: 'U0OPS', team: 'T0ONE' } },
        clients: { ci: { token: '${CI}', as: 'W0CI' } },
      },
    });
    expect(api).toMatchObject({ gatewayAs: 'U0OPS', gatewayTeam: 'T0ONE' });
    expect(api.clients.find((c) => c.name === 'ci')).not.toHaveProperty('asTeam');
    const severalEnv = { ...env, ...SEVERAL };
    const teamless = { api: { gateway: { as: 'U0OPS' } } };
    expect(configErrorOf(() => load(severalEnv, teamless)).key).toBe('api.gateway.as.team');
    const client = {
      api: {
        gateway: { as: { user: 'U0OPS', team: 'T0ONE' } },
        clients: { ci: { token: '${CI}', as: { user: 'W0CI' } } },
      },
    };
    expect(configErrorOf(() => load(severalEnv, client)).key).toBe('api.clients.ci.as.team');
    const both = load(severalEnv, {
      api: {
        gateway: { as: { user: 'U0OPS', team: 'T0ONE' } },
        clients: { ci: { token: '${CI}', as: { user: 'W0CI', team: 'T0TWO' } } },
      },
    });
    expect(both.clients.find((c) => c.name === 'ci')).toMatchObject({ as: 'W0CI', asTeam: 'T0TWO' });
    const bad = { api: { gateway: { as: { user: 'U0OPS', team: 'ops' } } } };
    expect(configErrorOf(() => load(env, bad)).key).toBe('api.gateway.as.team');
  });

  it('is unset when nothing names one', () => {
    expect(load(env, {})).not.toHaveProperty('gatewayAs');
  });

  it('refuses a value that is not a Slack user id, naming the key', () => {
    expect(configErrorOf(() => load(env, { api: { gateway: { as: '#ops' } } })).message).toContain(
      'api.gateway.as',
    );
    expect(configErrorOf(() => load(env, { api: { gateway: 'U1' } })).message).toContain('api.gateway');
    const client = { api: { clients: { ci: { token: '${CI}', as: 42 } } } };
    expect(configErrorOf(() => load(env, client)).message).toContain('api.clients.ci.as');
  });
});
