// The bot's own settings that want text, written unquoted as YAML reads a number. `auth: { clientId: 12345 }` was
// refused as "not a non-empty string" and `api.clients.<name>.token: 0123` as "is missing", though both are there;
// and turned back into a string, `0123` would be "123", a token nobody wrote. Each keeps the text written, as a
// server's env and args do (written-text.ts); a value that is present but no text (a list, a mapping, no value)
// is named as what it is, never as missing. Numbers stay numbers where the config wants them.
import { describe, expect, it } from 'vitest';
import { loadConfig, type AppConfig, type ServerAuthConfig } from '../../src/config/index.js';
import { configErrorOf } from '../support/config.js';

const PATH = 'team/elicit-relay.yml';
const TOKEN_KEY = Buffer.alloc(32, 7).toString('base64');

function load(text: string): AppConfig {
  return loadConfig({
    env: { ELICIT_RELAY_CONFIG: PATH, ELICIT_RELAY_TOKEN_KEY: TOKEN_KEY },
    readFile: (path) => (path === PATH ? text : undefined),
    isFile: () => false,
  });
}

function authOf(auth: string): ServerAuthConfig | undefined {
  return load(`mcpServers:\n  tracker:\n    url: https://tracker.example.com/mcp\n    auth: ${auth}\n`)
    .servers[0]?.auth;
}

const withClient = (lines: string): string => `api:\n  clients:\n    ci:\n${lines}`;

describe('a text setting written unquoted keeps the text written', () => {
  it.each([
    ['12345', '12345'],
    ['0123', '0123'],
    ['1.10', '1.10'],
    ['1e3', '1e3'],
  ])('auth clientId: %s arrives as %j, and its secret too', (written, text) => {
    expect(
      authOf(`{ mode: clientCredentials, clientId: ${written}, clientSecret: ${written} }`),
    ).toMatchObject({
      clientId: text,
      clientSecret: text,
    });
  });

  it("keeps the IdP's client id and the scopes as written", () => {
    const auth =
      '{ mode: enterpriseManaged, clientId: 0123, scopes: [read, 2.0], idp: { issuer: https://idp.example.com, clientId: 0042 } }';
    expect(authOf(auth)).toMatchObject({
      clientId: '0123',
      scopes: ['read', '2.0'],
      idp: { clientId: '0042' },
    });
  });

  it("keeps an API client's token and the names it lists as written, its rate a number", () => {
    const [client] = load(
      withClient('      token: 0123\n      servers: [0123, github]\n      ratePerMinute: 5\n'),
    ).api.clients;
    expect(client).toMatchObject({
      name: 'ci',
      token: '0123',
      servers: ['0123', 'github'],
      ratePerMinute: 5,
    });
  });

  it("keeps a JSON file's number token as written", () => {
    const [client] = load('{ "api": { "clients": { "ci": { "token": 1.10 } } } }').api.clients;
    expect(client?.token).toBe('1.10');
  });
});

describe('a text setting that is present but no text is named as what it is', () => {
  it.each([
    ['      token: [a, b]\n', 'api.clients.ci.token: is a list, not text'],
    ['      token: { a: b }\n', 'api.clients.ci.token: is a mapping, not text'],
    ['      token:\n', 'api.clients.ci.token: has no value'],
    ['      token: ""\n', 'api.clients.ci.token: is empty'],
    ['      servers: [github]\n', 'api.clients.ci.token: is missing'],
  ])('%j is refused: %s', (lines, message) => {
    const error = configErrorOf(() => load(withClient(lines)));
    expect(error.message).toContain(message);
    expect(error.message).toContain('Write `token: ${SOME_VAR}`');
  });

  it('names an auth clientId written as a list, not as missing', () => {
    const error = configErrorOf(() => authOf('{ mode: clientCredentials, clientId: [a], clientSecret: s }'));
    expect(error.key).toBe('mcpServers.tracker.auth.clientId');
    expect(error.message).toContain('is a list, not text');
  });
});
