// Per server `auth:` and the sign-in settings (src/config/server-auth.ts, sign-in.ts): read as written,
// refused with the key.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/index.js';
import { configErrorOf } from './support/config.js';

const KEY = Buffer.alloc(32, 7).toString('base64');
const OLD_KEY = Buffer.alloc(32, 9).toString('base64');
const BASE_ENV = { ELICIT_RELAY_TOKEN_KEY: KEY, ELICIT_RELAY_PUBLIC_URL: 'https://bot.example.com/' };

function load(yaml: string, env: Record<string, string> = BASE_ENV) {
  return loadConfig({ env, readFile: (path) => (path === './elicit-relay.yml' ? yaml : undefined) });
}

const server = (auth: string) =>
  `mcpServers:\n  tracker:\n    url: https://mcp.example.com/mcp\n    auth: ${auth}\n`;

describe('auth: per server', () => {
  it('reads oauth with a pre-registered client, ${VAR} secret, scopes and metadata URL, and the key settings', () => {
    const config = load(
      server(
        '{ mode: oauth, clientId: relay, clientSecret: "${TRACKER_SECRET}", scopes: [read, "write:issues"], metadataUrl: "https://auth.example.com/.well-known/oauth-authorization-server", tokenEndpointAuthMethod: client_secret_post }',
      ),
      { ...BASE_ENV, TRACKER_SECRET: 's3cret', ELICIT_RELAY_TOKEN_KEY_PREVIOUS: OLD_KEY },
    );
    expect(config.servers[0]?.auth).toEqual({
      mode: 'oauth',
      clientId: 'relay',
      clientSecret: 's3cret',
      scopes: ['read', 'write:issues'],
      metadataUrl: 'https://auth.example.com/.well-known/oauth-authorization-server',
      tokenEndpointAuthMethod: 'client_secret_post',
    });
    expect(config.signIn?.tokenKey.equals(Buffer.alloc(32, 7))).toBe(true);
    expect(config.signIn?.previousTokenKey?.equals(Buffer.alloc(32, 9))).toBe(true);
    expect(config.signIn?.publicUrl).toBe('https://bot.example.com');
  });

  it('defaults the mode to oauth, drops mode none, and needs no key without auth', () => {
    expect(load(server('{}')).servers[0]?.auth).toEqual({ mode: 'oauth' });
    const none = load(server('{ mode: none }'), {});
    expect(none.servers[0]?.auth).toBeUndefined();
    expect(none.signIn).toBeUndefined();
  });

  it('reads clientCredentials with a secret or a private key file (ES256 by default)', () => {
    expect(
      load(server('{ mode: clientCredentials, clientId: bot, clientSecret: x }')).servers[0]?.auth,
    ).toEqual({
      mode: 'clientCredentials',
      clientId: 'bot',
      clientSecret: 'x',
    });
    expect(
      load(server('{ mode: clientCredentials, clientId: bot, privateKeyFile: /k.pem }')).servers[0]?.auth,
    ).toEqual({
      mode: 'clientCredentials',
      clientId: 'bot',
      privateKeyFile: '/k.pem',
      signingAlgorithm: 'ES256',
    });
  });

  it('reads workloadIdentity: a client id and the file of the JWT the platform issues the workload', () => {
    expect(
      load(server('{ mode: workloadIdentity, clientId: bot, assertionFile: /var/run/token, scopes: [a] }'))
        .servers[0]?.auth,
    ).toEqual({ mode: 'workloadIdentity', clientId: 'bot', assertionFile: '/var/run/token', scopes: ['a'] });
  });

  it('reads enterpriseManaged: the bot client at the authorization server and the company IdP, ${VAR} secrets', () => {
    const auth =
      '{ mode: enterpriseManaged, clientId: relay, clientSecret: "${AS_SECRET}", issuer: "https://auth.example.com", scopes: [read], idp: { issuer: "https://idp.example.com", clientId: relay-idp, clientSecret: "${IDP_SECRET}", tokenEndpoint: "https://idp.example.com/oauth2/token" } }';
    const env = { ...BASE_ENV, AS_SECRET: 'a', IDP_SECRET: 'b' };
    expect(load(server(auth), env).servers[0]?.auth).toEqual({
      mode: 'enterpriseManaged',
      clientId: 'relay',
      clientSecret: 'a',
      issuer: 'https://auth.example.com',
      scopes: ['read'],
      idp: {
        issuer: 'https://idp.example.com',
        clientId: 'relay-idp',
        clientSecret: 'b',
        tokenEndpoint: 'https://idp.example.com/oauth2/token',
      },
    });
  });

  it('enterpriseManaged signs people in, so it takes the public URL of the callback, http://localhost:<PORT> by default', () => {
    const auth = '{ mode: enterpriseManaged, clientId: a, idp: { issuer: "https://idp", clientId: b } }';
    const config = load(server(auth), { ELICIT_RELAY_TOKEN_KEY: KEY, PORT: '8080' });
    expect(config.signIn?.publicUrl).toBe('http://localhost:8080');
    expect(configErrorOf(() => load(server(auth), { ELICIT_RELAY_TOKEN_KEY: KEY, PORT: '0' })).key).toBe(
      'ELICIT_RELAY_PUBLIC_URL',
    );
  });

  it('a deployment grant alone needs the token key but no public URL', () => {
    const config = load(server('{ mode: clientCredentials, clientId: bot, clientSecret: x }'), {
      ELICIT_RELAY_TOKEN_KEY: KEY,
    });
    expect(config.signIn?.publicUrl).toBeUndefined();
  });

  it.each([
    ['{ mode: sometimes }', 'mcpServers.tracker.auth.mode'],
    // A number written there is the text written (text-settings.test.ts); a list is no text.
    ['{ clientSecret: [12] }', 'mcpServers.tracker.auth.clientSecret'],
    ['{ scopes: "" }', 'mcpServers.tracker.auth.scopes'],
    ['{ scopes: ["has space"] }', 'mcpServers.tracker.auth.scopes'],
    ['{ metadataUrl: "ftp://x" }', 'mcpServers.tracker.auth.metadataUrl'],
    ['{ tokenEndpointAuthMethod: private_key_jwt }', 'mcpServers.tracker.auth.tokenEndpointAuthMethod'],
    ['{ clientID: x }', 'mcpServers.tracker.auth.clientID'],
    ['{ mode: clientCredentials, clientSecret: x }', 'mcpServers.tracker.auth.clientId'],
    ['{ mode: clientCredentials, clientId: a }', 'mcpServers.tracker.auth'],
    [
      '{ mode: clientCredentials, clientId: a, clientSecret: b, privateKeyFile: c }',
      'mcpServers.tracker.auth',
    ],
    ['{ mode: workloadIdentity, assertionFile: /t }', 'mcpServers.tracker.auth.clientId'],
    ['{ mode: workloadIdentity, clientId: a }', 'mcpServers.tracker.auth.assertionFile'],
    [
      '{ mode: workloadIdentity, clientId: a, assertionFile: /t, clientSecret: b }',
      'mcpServers.tracker.auth.clientSecret',
    ],
    ['{ clientSecret: "${UNSET_SECRET}" }', 'mcpServers.tracker.auth.clientSecret'],
    [
      '{ mode: enterpriseManaged, idp: { issuer: "https://i", clientId: b } }',
      'mcpServers.tracker.auth.clientId',
    ],
    ['{ mode: enterpriseManaged, clientId: a }', 'mcpServers.tracker.auth.idp'],
    ['{ mode: enterpriseManaged, clientId: a, idp: [x] }', 'mcpServers.tracker.auth.idp'],
    ['{ mode: enterpriseManaged, clientId: a, idp: { clientId: b } }', 'mcpServers.tracker.auth.idp.issuer'],
    [
      '{ mode: enterpriseManaged, clientId: a, idp: { issuer: "idp.example.com", clientId: b } }',
      'mcpServers.tracker.auth.idp.issuer',
    ],
    [
      '{ mode: enterpriseManaged, clientId: a, idp: { issuer: "https://i" } }',
      'mcpServers.tracker.auth.idp.clientId',
    ],
    [
      '{ mode: enterpriseManaged, clientId: a, idp: { issuer: "https://i", clientId: b, audience: c } }',
      'mcpServers.tracker.auth.idp.audience',
    ],
    [
      '{ mode: enterpriseManaged, clientId: a, idp: { issuer: "https://i", clientId: b, tokenEndpoint: "/t" } }',
      'mcpServers.tracker.auth.idp.tokenEndpoint',
    ],
    [
      '{ mode: enterpriseManaged, clientId: a, idp: { issuer: "https://i", clientId: b, clientSecret: "${UNSET_SECRET}" } }',
      'mcpServers.tracker.auth.idp.clientSecret',
    ],
    ['{ mode: oauth, idp: { issuer: "https://i", clientId: b } }', 'mcpServers.tracker.auth.idp'],
    [
      '{ mode: clientCredentials, clientId: a, clientSecret: b, issuer: "https://i" }',
      'mcpServers.tracker.auth.issuer',
    ],
    ['[oauth]', 'mcpServers.tracker.auth'],
  ])('refuses auth %s naming %s', (auth, key) => {
    expect(configErrorOf(() => load(server(auth))).key).toBe(key);
  });

  it('refuses auth on a stdio server', () => {
    const yaml = 'mcpServers:\n  local:\n    command: node\n    auth: { mode: oauth }\n';
    expect(configErrorOf(() => load(yaml)).key).toBe('mcpServers.local.auth');
  });

  it.each([
    [{ ELICIT_RELAY_PUBLIC_URL: 'https://b' }, 'ELICIT_RELAY_TOKEN_KEY'],
    [{ ELICIT_RELAY_TOKEN_KEY: 'c2hvcnQ=', ELICIT_RELAY_PUBLIC_URL: 'https://b' }, 'ELICIT_RELAY_TOKEN_KEY'],
    [{ ...BASE_ENV, ELICIT_RELAY_TOKEN_KEY_PREVIOUS: 'not base64!' }, 'ELICIT_RELAY_TOKEN_KEY_PREVIOUS'],
    [{ ELICIT_RELAY_TOKEN_KEY: KEY, PORT: '0' }, 'ELICIT_RELAY_PUBLIC_URL'],
    [{ ELICIT_RELAY_TOKEN_KEY: KEY, ELICIT_RELAY_PUBLIC_URL: 'bot.example.com' }, 'ELICIT_RELAY_PUBLIC_URL'],
  ])('refuses the sign-in settings %j naming %s', (env, key) => {
    const error = configErrorOf(() => load(server('{ mode: oauth }'), env));
    expect(error.key).toBe(key);
    expect(error.message).not.toContain(KEY);
  });
});
