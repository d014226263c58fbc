// A stdio server written with its whole command line in `command` ("npx -y foo", no `args`) loaded, then failed
// every connect with ENOENT: the bot starts `command` as one program, without a shell, as Claude Desktop and VS
// Code do. It now stops start-up naming the server's key and the split to write; a program whose own path holds
// spaces still loads and runs, and its environment reaches it as written (written-text.ts).
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type AppConfig } from '../../src/config/index.js';
import { McpHub } from '../../src/mcp/hub.js';
import { configErrorOf } from '../support/config.js';
import { fixtureCommand } from '../setup/compiled.js';
import { recordingSink } from '../mcp/support.js';

const PATH = 'elicit-relay.json';

function load(
  servers: Record<string, unknown>,
  env: Record<string, string> = {},
  files: string[] = [],
): AppConfig {
  return loadConfig({
    env: { ELICIT_RELAY_CONFIG: PATH, ...env },
    readFile: (path) => (path === PATH ? JSON.stringify({ mcpServers: servers }) : undefined),
    isFile: (path) => files.includes(path),
  });
}

describe('a whole command line in `command`', () => {
  it('stops start-up naming the server and the command/args split to write', () => {
    const error = configErrorOf(() => load({ foo: { command: 'npx -y foo' } }));
    expect(error.key).toBe('mcpServers.foo.command');
    expect(error.message).toContain('"npx -y foo" is a whole command line');
    expect(error.message).toContain('"command": "npx", "args": ["-y","foo"]');
  });

  it('puts the words of `command` before the `args` already given, and checks after ${VAR}', () => {
    const error = configErrorOf(() =>
      load({ foo: { command: '${RUNNER} -y', args: ['foo', '--stdio'] } }, { RUNNER: 'npx' }),
    );
    expect(error.message).toContain('"command": "npx", "args": ["-y","foo","--stdio"]');
  });

  it('loads a program whose path holds spaces: absolute, relative to `cwd`, or a name on PATH', () => {
    const files = ['/opt/My Tools/server', '/srv/mcp/bin dir/server', '/usr/local/my bin/tool server'];
    const servers = {
      absolute: { command: '/opt/My Tools/server' },
      relative: { command: 'bin dir/server', cwd: '/srv/mcp' },
      onPath: { command: 'tool server', env: { PATH: '/usr/bin:/usr/local/my bin' } },
    };
    expect(load(servers, {}, files).servers.map((s) => s.transport)).toMatchObject([
      { command: '/opt/My Tools/server' },
      { command: 'bin dir/server', cwd: '/srv/mcp' },
      { command: 'tool server' },
    ]);
  });

  it('leaves a command without whitespace to the start of the server, as before', () => {
    expect(load({ foo: { command: 'not-installed-yet', args: ['-y', 'foo'] } }).servers).toHaveLength(1);
  });
});

describe('a program whose path holds spaces, started from the file', () => {
  let dir: string;
  const hubs: McpHub[] = [];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'elicit-relay command line '));
  });
  afterEach(async () => {
    await Promise.all(hubs.splice(0).map((hub) => hub.close()));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs and gets its environment as written', async () => {
    const node = join(dir, 'my node');
    symlinkSync(fixtureCommand().command, node);
    const file = join(dir, 'elicit-relay.yml');
    const args = fixtureCommand()
      .args.map((arg) => JSON.stringify(arg))
      .join(', ');
    writeFileSync(
      file,
      `mcpServers:\n  spaced:\n    command: ${JSON.stringify(node)}\n    args: [${args}]\n    env:\n      VERSION: 1.10\n`,
    );
    const { servers } = loadConfig({
      env: { ELICIT_RELAY_CONFIG: file },
      readFile: (path) => (path === file ? readFileSync(path, 'utf8') : undefined),
    });
    const hub = new McpHub({ servers, sink: recordingSink(() => ({ action: 'decline' })) });
    hubs.push(hub);
    const result = await hub.callTool({
      server: 'spaced',
      tool: 'getenv',
      args: { name: 'VERSION' },
      origin: { userId: 'U1' },
    });
    expect(result.text).toBe('1.10');
  });
});
