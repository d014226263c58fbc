// A server's environment, headers and arguments as written in a YAML (or JSON) file. Before, YAML's reading of an
// unquoted scalar reached the server: `VERSION: 1.10` became "1.1", `0123` "123", `1e3` "1000", a YAML 1.1 file's
// `yes`/`on` "true", and the same unquoted values in `args` stopped start-up as "not a string"; a `~` was refused
// without naming the file or the line. The text written is kept; a value that has none (`~`, `null`, nothing) is
// refused naming the file, the line, the key and the fix.
import { describe, expect, it } from 'vitest';
import { loadConfig, type AppConfig, type TransportConfig } from '../../src/config/index.js';
import { configErrorOf } from '../support/config.js';

const PATH = 'team/elicit-relay.yml';

function load(text: string): AppConfig {
  return loadConfig({
    env: { ELICIT_RELAY_CONFIG: PATH },
    readFile: (path) => (path === PATH ? text : undefined),
    isFile: () => false,
  });
}

/** The one server's transport. */
function transportOf(text: string): TransportConfig {
  const transport = load(text).servers[0]?.transport;
  if (!transport) throw new Error('no server loaded');
  return transport;
}

const withEnv = (lines: string): string => `mcpServers:\n  files:\n    command: npx\n    env:\n${lines}`;

describe('a server entry keeps the text written', () => {
  it.each([
    ['1.10', '1.10'],
    ['0123', '0123'],
    ['1e3', '1e3'],
    ['0x1F', '0x1F'],
    ['True', 'True'],
    ['.inf', '.inf'],
    ['yes', 'yes'],
    ['on', 'on'],
  ])('env VERSION: %s arrives as %j', (written, text) => {
    expect(transportOf(withEnv(`      VERSION: ${written}\n`))).toMatchObject({ env: { VERSION: text } });
  });

  it("keeps a YAML 1.1 file's yes, on, 0123 and N: as written, keys included", () => {
    const text =
      '%YAML 1.1\n---\nmcpServers:\n  files:\n    command: npx\n' +
      '    env: { FLAG: yes, OTHER: on, OCTAL: 0123, N: off, SIXTY: 1:00 }\n';
    expect(transportOf(text)).toMatchObject({
      env: { FLAG: 'yes', OTHER: 'on', OCTAL: '0123', N: 'off', SIXTY: '1:00' },
    });
  });

  it('keeps args and headers as written, and a JSON file’s numbers as written', () => {
    const stdio =
      'mcpServers:\n  files:\n    command: npx\n    args: [-y, server@1.10, --port, 0123, 1e3, 1.10]\n';
    expect(transportOf(stdio)).toMatchObject({
      args: ['-y', 'server@1.10', '--port', '0123', '1e3', '1.10'],
    });
    const http =
      'mcpServers:\n  remote:\n    url: https://h.example.com/mcp\n    headers:\n      X-Api-Version: 2.10\n';
    expect(transportOf(http)).toMatchObject({ headers: { 'X-Api-Version': '2.10' } });
    const json =
      '{ "mcpServers": { "files": { "command": "npx", "args": [1.10], "env": { "V": 1.10, "B": true } } } }';
    expect(transportOf(json)).toMatchObject({ args: ['1.10'], env: { V: '1.10', B: 'true' } });
  });

  it('keeps the text of values reached through an anchor, an alias and a merge key', () => {
    const text =
      'x-env: &env\n  VERSION: 1.10\n  PORT: &port 0123\n' +
      'mcpServers:\n  files:\n    command: npx\n    args: [--port, *port]\n    env:\n      <<: *env\n      EXTRA: 1e3\n';
    expect(transportOf(text)).toMatchObject({
      args: ['--port', '0123'],
      env: { VERSION: '1.10', PORT: '0123', EXTRA: '1e3' },
    });
  });

  it('leaves numbers and booleans where the config wants them, and loads a file with a cyclic alias', () => {
    const text =
      'x-loop: &loop [1, *loop]\nmcpServers:\n  files:\n    command: npx\n    startupTimeout: 45000\n' +
      '    gateway: true\n    elicitation: { ratePerMinute: 5 }\n  spare:\n    command: npx\n    disabled: true\n';
    const [server, ...others] = load(text).servers;
    expect(others).toEqual([]);
    expect(server).toMatchObject({
      name: 'files',
      startupTimeoutMs: 45_000,
      gateway: true,
      ratePerMinute: 5,
    });
  });

  it.each([
    [
      '      VERSION: ~\n',
      'mcpServers.files.env.VERSION',
      'is ~ in team/elicit-relay.yml (line 5)',
      'Quote it: VERSION: "~"',
    ],
    [
      '      VERSION: null\n',
      'mcpServers.files.env.VERSION',
      'is null in team/elicit-relay.yml (line 5)',
      'Quote it: VERSION: "null"',
    ],
    [
      '      VERSION:\n',
      'mcpServers.files.env.VERSION',
      'is empty in team/elicit-relay.yml (line 5)',
      'Write VERSION: "" for an empty value',
    ],
  ])('refuses %j naming the file, the line, %s and the fix', (line, key, problem, fix) => {
    const error = configErrorOf(() => load(withEnv(line)));
    expect(error.key).toBe(key);
    expect(error.message).toContain(problem);
    expect(error.message).toContain(fix);
    expect(error.message).toContain('VERSION: "${VERSION}" for the bot\'s own VERSION');
  });

  it('refuses a null in args and in headers, naming each', () => {
    const args = configErrorOf(() => load('mcpServers:\n  files:\n    command: npx\n    args: [-y, ~]\n'));
    expect(args.key).toBe('mcpServers.files.args[1]');
    expect(args.message).toContain('in team/elicit-relay.yml (line 4)');
    expect(args.message).toContain('Quote it: "~"');
    const headers = configErrorOf(() =>
      load('servers:\n  remote:\n    url: https://h.example.com/mcp\n    headers: { X-Key: null }\n'),
    );
    expect(headers.key).toBe('servers.remote.headers.X-Key');
    expect(headers.message).toContain('Quote it: X-Key: "null"');
  });
});
