// A misspelled key inside the bot's own sections of the config file stops start-up naming its full path and
// the keys that section knows, instead of being ignored while its default applies (`tagets` left a client that
// may ask anyone). The top level and each server's entry still take any key: Claude Desktop writes its own.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { configErrorOf } from '../support/config.js';

const ENV = { CI_TOKEN: 'ci-secret' };

function load(yaml: string, env: Record<string, string> = ENV) {
  return loadConfig({ env, readFile: (path) => (path === './elicit-relay.yml' ? yaml : undefined) });
}

const server = (extra: string) => `mcpServers:\n  github:\n    command: gh\n${extra}`;

describe('unknown keys in the bot-owned sections of the config file', () => {
  it.each([
    ['api: { client: { ci: { token: x } } }', 'api.client', 'clients, gateway'],
    [
      'api:\n  clients:\n    ci: { token: "${CI_TOKEN}", tagets: [C0123] }',
      'api.clients.ci.tagets',
      'token, servers, targets, ratePerMinute, as',
    ],
    ['api: { gateway: { as: U0123, team: T1 } }', 'api.gateway.team', 'as'],
    ['api: { gateway: { as: { user: U0123, tem: T1 } } }', 'api.gateway.as.tem', 'user, team'],
    [
      'api:\n  clients:\n    ci: { token: "${CI_TOKEN}", as: { usr: U0123 } }',
      'api.clients.ci.as.usr',
      'user, team',
    ],
    ['audit: { contents: full }', 'audit.contents', 'content, retention'],
    [server('    elicitation: { timout: 2h }'), 'mcpServers.github.elicitation.timout', 'timeout, mode'],
    [
      server('    elicitation: { unsolicited: { user: U0123, channel: C1 } }'),
      'mcpServers.github.elicitation.unsolicited.channel',
      'user',
    ],
    [
      server('    slack: { answerers: { user: [U0123] } }'),
      'mcpServers.github.slack.answerers.user',
      'requester, users, usergroups, channel',
    ],
  ])('refuses %j naming %s and the known keys', (yaml, key, known) => {
    const error = configErrorOf(() => load(yaml));
    expect(error.key).toBe(key);
    expect(error.message).toContain(`${key}: is not a setting`);
    expect(error.message).toContain(known);
  });

  it('keeps ignoring unknown keys at the top level and in a server entry (Claude Desktop writes its own)', () => {
    const config = load(
      'globalShortcut: Ctrl+Space\nmcpServers:\n  github: { command: gh, disabled: false, alwaysAllow: [] }\n',
    );
    expect(config.servers.map((s) => s.name)).toEqual(['github']);
  });

  it('still reads every documented key of those sections', () => {
    const config = load(
      [
        'api:',
        '  gateway: { as: { user: U0123ABCD, team: T0123ABCD } }',
        '  clients:',
        '    ci: { token: "${CI_TOKEN}", targets: [C0123], servers: [github], ratePerMinute: 5, as: U0123ABCD }',
        'audit: { content: fields, retention: 7d }',
        server(
          '    elicitation: { timeout: 2h, mode: form, ratePerMinute: 5, maxPending: 3, secrets: refuse, maxRounds: 4, unsolicited: { user: U0123ABCD } }',
        ),
      ].join('\n'),
    );
    expect(config.api.clients[0]).toMatchObject({ name: 'ci', targets: ['C0123'], servers: ['github'] });
    expect(config.api.gatewayTeam).toBe('T0123ABCD');
    expect(config.audit?.content).toBe('fields');
    expect(config.servers[0]).toMatchObject({ elicitationTimeoutMs: 7_200_000, maxRounds: 4 });
  });

  it('loads the repository example config', () => {
    const yaml = readFileSync(new URL('../../elicit-relay.example.yml', import.meta.url), 'utf8');
    const env = Object.fromEntries([...yaml.matchAll(/\$\{(\w+)/g)].map(([, name = '']) => [name, 'x']));
    expect(load(yaml, env).servers.length).toBeGreaterThan(0);
  });
});
