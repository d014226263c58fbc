// Values of the config file and environment that start-up accepts although the bot can never use them.
// An MCP server `url` that is no URL (a typo, a space from an env var) loads, and its server then reconnects for
// ever with "Invalid URL"; an ELICIT_RELAY_PUBLIC_URL that is no URL loads and breaks every sign-in's redirect
// URI. And the README says `${VAR}` is expanded from the environment in the config file, yet in
// `api.clients.<name>.targets` and `.servers` the text `${VAR}` is kept as it is, so the client silently may ask
// nobody and call no server. Each must be refused at start-up naming the key, or (for `${VAR}`) expanded. The
// sign-in URLs of a server's `auth` (its authorization server's metadata, its IdP) go through the same check.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type AppConfig } from '../../src/config/index.js';
import { configErrorOf } from '../support/config.js';

const TOKEN_KEY = Buffer.alloc(32, 7).toString('base64');

function load(file: string, env: Record<string, string> = {}): AppConfig {
  return loadConfig({ env, readFile: (path) => (path === './elicit-relay.yml' ? file : undefined) });
}

describe('config values start-up accepts although the bot cannot use them', () => {
  it.each(['https://exa mple.com/mcp', 'https://', 'http://[not-an-ip]/mcp'])(
    'refuses the MCP server url %j, naming mcpServers.<name>.url',
    (url) => {
      const error = configErrorOf(() => load(`mcpServers:\n  remote:\n    url: ${JSON.stringify(url)}\n`));
      expect(error.key).toBe('mcpServers.remote.url');
    },
  );

  it('refuses an MCP server url whose ${VAR} expands to something that is no URL', () => {
    const error = configErrorOf(() =>
      load('mcpServers:\n  remote:\n    url: "${REMOTE_URL}"\n', {
        REMOTE_URL: 'https://mcp.example.com /mcp',
      }),
    );
    expect(error.key).toBe('mcpServers.remote.url');
  });

  it('refuses an ELICIT_RELAY_PUBLIC_URL that is no URL once a server signs people in, naming it', () => {
    const file =
      'mcpServers:\n  tracker:\n    url: https://tracker.example.com/mcp\n    auth: { mode: oauth }\n';
    const env = { ELICIT_RELAY_TOKEN_KEY: TOKEN_KEY, ELICIT_RELAY_PUBLIC_URL: 'https://relay example.com' };
    const error = configErrorOf(() => load(file, env));
    expect(error.key).toBe('ELICIT_RELAY_PUBLIC_URL');
  });

  it.each([
    ['the sandbox (no Slack credentials)', {}],
    ['a bot whose servers sign nobody in', { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 'secret' }],
  ])('refuses an ELICIT_RELAY_PUBLIC_URL that is no URL in %s too, naming it', (_, slack) => {
    const env = { ...slack, ELICIT_RELAY_PUBLIC_URL: 'notaurl' };
    const error = configErrorOf(() => load('mcpServers:\n  local:\n    command: node\n', env));
    expect(error.key).toBe('ELICIT_RELAY_PUBLIC_URL');
    expect(error.message).toContain('"notaurl" is not a URL');
  });

  it.each([
    ['{ mode: oauth, metadataUrl: "https://auth example.com/.well-known/x" }', 'auth.metadataUrl'],
    [
      '{ mode: enterpriseManaged, clientId: a, idp: { issuer: "https://idp example.com", clientId: b } }',
      'auth.idp.issuer',
    ],
  ])('refuses the sign-in URL in %s, naming mcpServers.<name>.%s', (auth, key) => {
    const file = `mcpServers:\n  tracker:\n    url: https://tracker.example.com/mcp\n    auth: ${auth}\n`;
    const env = { ELICIT_RELAY_TOKEN_KEY: TOKEN_KEY, ELICIT_RELAY_PUBLIC_URL: 'https://relay.example.com' };
    expect(configErrorOf(() => load(file, env)).key).toBe(`mcpServers.tracker.${key}`);
  });

  it('never keeps ${VAR} as literal text in api.clients.<name>.targets and servers', () => {
    const file =
      'api:\n  clients:\n    deploy:\n      token: ${DEPLOY_TOKEN}\n' +
      '      targets: ["${APPROVALS_CHANNEL}"]\n      servers: ["${DEPLOY_SERVER}"]\n';
    const env = { DEPLOY_TOKEN: 't0k3n', APPROVALS_CHANNEL: 'C0123APPROVALS', DEPLOY_SERVER: 'github' };
    let client: AppConfig['api']['clients'][number] | undefined;
    try {
      client = load(file, env).api.clients.find((c) => c.name === 'deploy');
    } catch (error) {
      // Refusing the ${VAR} at start-up, naming the key, is as good as expanding it.
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).key).toMatch(/^api\.clients\.deploy\.(targets|servers)/);
      return;
    }
    expect(client).toMatchObject({ targets: ['C0123APPROVALS'], servers: ['github'] });
  });
});
