import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/index.js';
import { configErrorOf } from './support/config.js';

const files = (map: Record<string, string>) => (path: string) => map[path];

describe('loadConfig', () => {
  it('applies the contract defaults when nothing is set', () => {
    const config = loadConfig({ env: {}, readFile: files({}) });
    expect(config).toMatchObject({
      slack: { mode: 'sandbox', apiUrl: 'https://slack.com/api/' },
      redis: { url: 'redis://127.0.0.1:6379', prefix: 'elicit-relay' },
      port: 3000,
      configPath: './elicit-relay.yml',
      servers: [],
    });
  });

  it('reads a Claude Desktop config unchanged, with env expansion and per-server timeouts', () => {
    const json = JSON.stringify({
      globalShortcut: 'Ctrl+Space',
      mcpServers: {
        files: { command: 'npx', args: ['-y', 'server-fs', '${HOME_DIR}'], env: { TOKEN: '${GH_TOKEN}' } },
        remote: {
          url: 'https://mcp.example.com/mcp',
          headers: { Authorization: 'Bearer ${API_KEY}' },
          elicitation: { timeout: '90s' },
        },
      },
    });
    const config = loadConfig({
      env: { ELICIT_RELAY_CONFIG: 'c.json', HOME_DIR: '/srv', GH_TOKEN: 'ghp_1', API_KEY: 'k1' },
      readFile: files({ 'c.json': json }),
    });
    expect(config.servers).toEqual([
      {
        name: 'files',
        transport: {
          kind: 'stdio',
          command: 'npx',
          args: ['-y', 'server-fs', '/srv'],
          env: { TOKEN: 'ghp_1' },
        },
        elicitationTimeoutMs: 600_000,
        maxPending: 20,
        ratePerMinute: 60,
        elicitationMode: 'form',
      },
      {
        name: 'remote',
        transport: {
          kind: 'http',
          url: 'https://mcp.example.com/mcp',
          headers: { Authorization: 'Bearer k1' },
        },
        elicitationTimeoutMs: 90_000,
        maxPending: 20,
        ratePerMinute: 60,
        elicitationMode: 'form',
      },
    ]);
  });

  it('reads YAML with a timeout in milliseconds', () => {
    const yaml = 'mcpServers:\n  a:\n    command: node\n    elicitation:\n      timeout: 1500\n';
    const config = loadConfig({ env: {}, readFile: files({ './elicit-relay.yml': yaml }) });
    expect(config.servers[0]?.elicitationTimeoutMs).toBe(1500);
  });

  it.each([
    [{ PORT: 'http' }, {}, 'PORT'],
    [{ REDIS_URL: 'localhost:6379' }, {}, 'REDIS_URL'],
    [{ REDIS_PREFIX: 'a{b}' }, {}, 'REDIS_PREFIX'],
    [{ SLACK_BOT_TOKEN: 'xoxb-1' }, {}, 'SLACK_SIGNING_SECRET'],
    [{ SLACK_BOT_TOKEN: 'xoxp-1', SLACK_SIGNING_SECRET: 's' }, {}, 'SLACK_BOT_TOKEN'],
    [{ SLACK_SIGNING_SECRET: 's' }, {}, 'SLACK_BOT_TOKEN'],
    [{ SLACK_API_URL: 'ftp://x' }, {}, 'SLACK_API_URL'],
    [{ ELICIT_RELAY_CONFIG: 'missing.yml' }, {}, 'ELICIT_RELAY_CONFIG'],
    [{}, { './elicit-relay.yml': 'mcpServers: [1]' }, 'mcpServers'],
    [{}, { './elicit-relay.yml': 'mcpServers:\n  a: {}' }, 'mcpServers.a'],
    [{}, { './elicit-relay.yml': 'mcpServers:\n  a: { command: x, url: "http://y" }' }, 'mcpServers.a'],
    [{}, { './elicit-relay.yml': 'mcpServers:\n  a: { command: x, args: "-y" }' }, 'mcpServers.a.args'],
    [{}, { './elicit-relay.yml': 'mcpServers:\n  a: { url: "ws://y" }' }, 'mcpServers.a.url'],
    [{}, { './elicit-relay.yml': 'mcpServers:\n  a: { type: ws, url: "http://y" }' }, 'mcpServers.a.type'],
    [
      {},
      { './elicit-relay.yml': 'mcpServers:\n  a: { command: x, env: { T: "${NOPE}" } }' },
      'mcpServers.a.env.T',
    ],
    [
      {},
      { './elicit-relay.yml': 'mcpServers:\n  a: { command: x, elicitation: { timeout: soon } }' },
      'mcpServers.a.elicitation.timeout',
    ],
    [
      {},
      { './elicit-relay.yml': 'mcpServers:\n  a: { command: x, elicitation: { timeout: 10 } }' },
      'mcpServers.a.elicitation.timeout',
    ],
    [{}, { './elicit-relay.yml': 'mcpServers:\n  "my server": { command: x }' }, 'mcpServers.my server'],
    [
      {},
      { './elicit-relay.yml': 'mcpServers:\n  a: { command: x, elicitation: { mode: ask } }' },
      'mcpServers.a.elicitation.mode',
    ],
    [
      {},
      { './elicit-relay.yml': 'mcpServers:\n  a: { command: x, elicitation: { secrets: ignore } }' },
      'mcpServers.a.elicitation.secrets',
    ],
    [
      {},
      { './elicit-relay.yml': 'mcpServers:\n  a: { command: x, elicitation: { ratePerMinute: 0 } }' },
      'mcpServers.a.elicitation.ratePerMinute',
    ],
    [
      {},
      { './elicit-relay.yml': 'mcpServers:\n  a: { command: x, elicitation: { maxPending: 2.5 } }' },
      'mcpServers.a.elicitation.maxPending',
    ],
    [
      {},
      { './elicit-relay.yml': 'mcpServers:\n  a: { command: x, elicitation: { maxRounds: 0 } }' },
      'mcpServers.a.elicitation.maxRounds',
    ],
    [
      {},
      {
        './elicit-relay.yml':
          'mcpServers:\n  a: { command: x, elicitation: { unsolicited: { user: alice } } }',
      },
      'mcpServers.a.elicitation.unsolicited',
    ],
    [{}, { './elicit-relay.yml': 'mcpServers: {a: [' }, './elicit-relay.yml'],
  ])('refuses %j / %j naming the key %s and a fix', (env, map, key) => {
    const error = configErrorOf(() => loadConfig({ env, readFile: files(map) }));
    expect(error.key).toBe(key);
    expect(error.code).toBe('invalid_config');
    expect(error.message.startsWith(`${key}: `)).toBe(true);
    expect(error.message.length).toBeGreaterThan(key.length + 20);
  });

  it('reads the per-server elicitation policy', () => {
    const yaml =
      'mcpServers:\n  a: { command: x, elicitation: { mode: decline, ratePerMinute: 30, maxPending: 5, timeout: 2h, secrets: refuse, maxRounds: 3 } }';
    const config = loadConfig({ env: {}, readFile: files({ './elicit-relay.yml': yaml }) });
    expect(config.servers[0]).toMatchObject({
      elicitationMode: 'decline',
      ratePerMinute: 30,
      maxPending: 5,
      refuseSecrets: true,
      elicitationTimeoutMs: 7_200_000,
      maxRounds: 3,
    });
  });

  it('limits flooding by default (maxPending 20, ratePerMinute 60), raised per server, null for unlimited', () => {
    const yaml =
      'mcpServers:\n  a: { command: x }\n  b: { command: x, elicitation: { maxPending: 50, ratePerMinute: 120 } }\n' +
      '  c: { command: x, elicitation: { maxPending: null, ratePerMinute: null } }';
    const [a, b, c] = loadConfig({ env: {}, readFile: files({ './elicit-relay.yml': yaml }) }).servers;
    expect(a).toMatchObject({ maxPending: 20, ratePerMinute: 60 });
    expect(b).toMatchObject({ maxPending: 50, ratePerMinute: 120 });
    expect(c).not.toHaveProperty('maxPending');
    expect(c).not.toHaveProperty('ratePerMinute');
  });

  it('reads who gets elicitations no tool call caused, and leaves it unset by default', () => {
    const yaml =
      'mcpServers:\n  a: { command: x, elicitation: { unsolicited: { user: U0ADA } } }\n  b: { command: x }';
    const config = loadConfig({ env: {}, readFile: files({ './elicit-relay.yml': yaml }) });
    expect(config.servers[0]?.unsolicitedUser).toBe('U0ADA');
    expect(config.servers[1]?.unsolicitedUser).toBeUndefined();
  });

  it('offers a server at the MCP endpoint only with gateway: true, and names a wrong value', () => {
    const yaml = 'mcpServers:\n  a: { command: x, gateway: true }\n  b: { command: x }';
    const [a, b] = loadConfig({ env: {}, readFile: files({ './elicit-relay.yml': yaml }) }).servers;
    expect(a?.gateway).toBe(true);
    expect(b).not.toHaveProperty('gateway');
    const wrong = 'mcpServers:\n  a: { command: x, gateway: "yes" }';
    const error = configErrorOf(() =>
      loadConfig({ env: {}, readFile: files({ './elicit-relay.yml': wrong }) }),
    );
    expect(error.message).toContain('mcpServers.a.gateway');
    expect(error.message).toContain('gateway: true');
  });

  it('keeps ${VAR:-fallback} and the $${literal} escape', () => {
    const yaml = 'mcpServers:\n  a: { command: x, args: ["${MISSING:-dflt}", "$${KEEP}"] }';
    const config = loadConfig({ env: {}, readFile: files({ './elicit-relay.yml': yaml }) });
    expect(config.servers[0]?.transport).toMatchObject({ args: ['dflt', '${KEEP}'] });
  });

  it('chooses HTTP mode with a signing secret and Socket Mode with an app token', () => {
    const http = loadConfig({
      env: { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's' },
      readFile: files({}),
    });
    const socket = loadConfig({
      env: { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1' },
      readFile: files({}),
    });
    expect([http.slack.mode, socket.slack.mode]).toEqual(['http', 'socket']);
  });

  const OAUTH_ENV = {
    SLACK_CLIENT_ID: '1111.2222',
    SLACK_CLIENT_SECRET: 'secret',
    SLACK_STATE_SECRET: 'a-state-secret-of-some-length',
  };

  it('serves many workspaces with SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET, without a bot token', () => {
    const config = loadConfig({ env: { ...OAUTH_ENV, SLACK_SIGNING_SECRET: 's' }, readFile: files({}) });
    expect(config.slack).toMatchObject({
      mode: 'http',
      oauth: { clientId: '1111.2222', clientSecret: 'secret', stateSecret: 'a-state-secret-of-some-length' },
    });
    expect(config.slack.botToken).toBeUndefined();
    const socket = loadConfig({ env: { ...OAUTH_ENV, SLACK_APP_TOKEN: 'xapp-1' }, readFile: files({}) });
    expect(socket.slack.mode).toBe('socket');
  });

  it('refuses a partial OAuth setting, a short state secret, and OAuth together with a bot token', () => {
    const partial = configErrorOf(() =>
      loadConfig({ env: { SLACK_CLIENT_ID: 'x', SLACK_SIGNING_SECRET: 's' }, readFile: files({}) }),
    );
    expect(partial).toMatchObject({ key: 'SLACK_CLIENT_SECRET' });
    expect(partial.message).toContain('SLACK_STATE_SECRET');
    const short = configErrorOf(() =>
      loadConfig({
        env: { ...OAUTH_ENV, SLACK_STATE_SECRET: 'short', SLACK_SIGNING_SECRET: 's' },
        readFile: files({}),
      }),
    );
    expect(short).toMatchObject({ key: 'SLACK_STATE_SECRET' });
    const both = configErrorOf(() =>
      loadConfig({
        env: { ...OAUTH_ENV, SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's' },
        readFile: files({}),
      }),
    );
    expect(both).toMatchObject({ key: 'SLACK_BOT_TOKEN' });
    expect(both.message).toContain('/slack/install');
  });

  it('keeps finished questions for ELICIT_RELAY_RETENTION (default 24h) and refuses less than a minute', () => {
    expect(loadConfig({ env: {}, readFile: files({}) }).redis.retentionSec).toBe(86_400);
    const week = loadConfig({ env: { ELICIT_RELAY_RETENTION: '7d' }, readFile: files({}) });
    expect(week.redis.retentionSec).toBe(604_800);
    const short = configErrorOf(() =>
      loadConfig({ env: { ELICIT_RELAY_RETENTION: '10s' }, readFile: files({}) }),
    );
    expect(short).toMatchObject({ key: 'ELICIT_RELAY_RETENTION' });
  });
});
