// Config files as other MCP hosts write them (VS Code's `.vscode/mcp.json`, Cursor, Claude Code, Windsurf),
// copied in unchanged: each either works as it does there, or stops start-up naming the key and what to change.
// Before, several loaded with no server, or with `${env:VAR}` sent to the server as literal text.
import { describe, expect, it } from 'vitest';
import { loadConfig, type AppConfig } from '../../src/config/index.js';
import { configErrorOf } from '../support/config.js';

function load(text: string, env: Record<string, string> = {}, path = 'mcp.json'): AppConfig {
  return loadConfig({
    env: { ELICIT_RELAY_CONFIG: path, ...env },
    readFile: (p) => (p === path ? text : undefined),
  });
}

const json = (value: unknown): string => JSON.stringify(value, null, 2);

describe('config files written by other MCP hosts', () => {
  it('reads JSON with comments and trailing commas (VS Code, Cursor) without losing a server', () => {
    const text =
      '{\n  // servers for the team\n  "mcpServers": {\n    /* GitHub */ "github": {\n' +
      '      "url": "https://api.example.com/mcp", // the Streamable HTTP endpoint\n    },\n  },\n}\n';
    expect(load(text).servers.map((s) => [s.name, s.transport])).toEqual([
      ['github', { kind: 'http', url: 'https://api.example.com/mcp', headers: {} }],
    ]);
  });

  it('keeps "//" inside a JSON string and in a YAML flow value', () => {
    const flow = 'mcpServers: { remote: { url: https://mcp.example.com/mcp } }\n';
    expect(load(flow, {}, 'c.yml').servers[0]?.transport).toMatchObject({
      url: 'https://mcp.example.com/mcp',
    });
    const text =
      '{ "mcpServers": { "a": { "command": "x", "args": ["//not a comment", "/* nor this */"] } } }';
    expect(load(text).servers[0]?.transport).toMatchObject({ args: ['//not a comment', '/* nor this */'] });
  });

  it('keeps the slashes of an unquoted path in a flow map that starts the file', () => {
    const flow = '{ mcpServers: { local: { command: /usr/bin/node, args: [./server.js] } } }\n';
    expect(load(flow, {}, 'c.yml').servers[0]?.transport).toMatchObject({
      command: '/usr/bin/node',
      args: ['./server.js'],
    });
  });

  it("reads VS Code's top-level `servers` as mcpServers, naming its keys as `servers.<name>`", () => {
    const text = json({
      inputs: [],
      servers: { tracker: { type: 'stdio', command: 'node', args: ['t.js'] } },
    });
    expect(load(text).servers.map((s) => s.name)).toEqual(['tracker']);
    const bad = json({
      servers: { tracker: { type: 'stdio', command: 'node', elicitation: { timeout: 'soon' } } },
    });
    expect(configErrorOf(() => load(bad)).key).toBe('servers.tracker.elicitation.timeout');
  });

  it('refuses a file with both `servers` and `mcpServers`, and a misspelled mcpServers', () => {
    const both = json({ servers: { a: { command: 'x' } }, mcpServers: { b: { command: 'y' } } });
    expect(configErrorOf(() => load(both)).key).toBe('servers');
    for (const key of ['mcp_servers', 'mcpservers', 'MCPServers', 'mcpServer']) {
      const error = configErrorOf(() => load(json({ [key]: { a: { command: 'x' } } })));
      expect(error.key).toBe(key);
      expect(error.message).toContain('mcpServers');
    }
  });

  it("expands VS Code's ${env:VAR} and refuses ${input:…}, which only an editor can prompt for", () => {
    const text = json({
      servers: {
        gh: {
          type: 'http',
          url: 'https://a.example.com/mcp',
          headers: { Authorization: 'Bearer ${env:GH}' },
        },
      },
    });
    expect(load(text, { GH: 'ghp_1' }).servers[0]?.transport).toMatchObject({
      headers: { Authorization: 'Bearer ghp_1' },
    });
    expect(configErrorOf(() => load(text)).key).toBe('servers.gh.headers.Authorization');
    const input = json({
      inputs: [{ type: 'promptString', id: 'gh-token', password: true }],
      servers: { gh: { command: 'x', env: { TOKEN: '${input:gh-token}' } } },
    });
    const error = configErrorOf(() => load(input));
    expect(error.key).toBe('servers.gh.env.TOKEN');
    expect(error.message).toContain('${input:gh-token}');
  });

  it.each(['${ TOKEN }', '${TOKEN-x}', '${TOKEN:=x}', 'Bearer ${TOKEN'])(
    'refuses %j instead of sending it as literal text',
    (value) => {
      const text = json({ mcpServers: { gh: { url: 'https://a.example.com/mcp', headers: { A: value } } } });
      expect(configErrorOf(() => load(text, { TOKEN: 't' })).key).toBe('mcpServers.gh.headers.A');
    },
  );

  it('still writes a literal ${ with $${', () => {
    const text = json({ mcpServers: { gh: { command: 'sh', args: ['-c', 'echo $${HOME}'] } } });
    expect(load(text).servers[0]?.transport).toMatchObject({ args: ['-c', 'echo ${HOME}'] });
  });

  it('accepts Windsurf\'s `serverUrl`, and Claude Code\'s `"type": "sse"` as an HTTP server', () => {
    const text = json({
      mcpServers: { surf: { serverUrl: 'https://surf.example.com/mcp', headers: { A: 'b' } } },
    });
    expect(load(text).servers.map((s) => s.transport)).toEqual([
      { kind: 'http', url: 'https://surf.example.com/mcp', headers: { A: 'b' } },
    ]);
    // Streamable HTTP first, then the legacy SSE it falls back to: how an SSE-only server is reached.
    const sse = json({ mcpServers: { legacy: { type: 'sse', url: 'https://old.example.com/sse' } } });
    expect(load(sse).servers.map((s) => s.transport)).toEqual([
      { kind: 'http', url: 'https://old.example.com/sse', headers: {} },
    ]);
  });

  it('refuses a `type` that contradicts the entry, and both url and serverUrl', () => {
    const cases: [unknown, string][] = [
      [{ type: 'stdio', url: 'https://a.example.com/mcp' }, 'mcpServers.s.type'],
      [{ type: 'http', command: 'node' }, 'mcpServers.s.type'],
      [
        { url: 'https://a.example.com/mcp', serverUrl: 'https://b.example.com/mcp' },
        'mcpServers.s.serverUrl',
      ],
    ];
    for (const [entry, key] of cases) {
      expect(configErrorOf(() => load(json({ mcpServers: { s: entry } }))).key).toBe(key);
    }
  });

  it("refuses VS Code's `envFile`, which would otherwise start the server without its variables", () => {
    const text = json({
      servers: { gh: { type: 'stdio', command: 'x', envFile: '${workspaceFolder}/.env' } },
    });
    const error = configErrorOf(() => load(text));
    expect(error.key).toBe('servers.gh.envFile');
    expect(error.message).toContain('env');
  });

  it('leaves out a server marked `disabled: true` (Cline, Windsurf) and refuses a disabled that is no boolean', () => {
    const text = json({
      mcpServers: { off: { command: 'x', disabled: true }, on: { command: 'y', disabled: false } },
    });
    expect(load(text).servers.map((s) => s.name)).toEqual(['on']);
    const bad = json({ mcpServers: { off: { command: 'x', disabled: 'yes' } } });
    expect(configErrorOf(() => load(bad)).key).toBe('mcpServers.off.disabled');
  });

  it.each([
    [{ 'Bad Header': 'x' }, 'mcpServers.s.headers.Bad Header'],
    [{ Authorization: 'Bearer ${TOKEN}' }, 'mcpServers.s.headers.Authorization'],
  ])('refuses a header fetch would refuse on every request: %j', (headers, key) => {
    const text = json({ mcpServers: { s: { url: 'https://a.example.com/mcp', headers } } });
    // A secret read from a file often ends in a line break.
    expect(configErrorOf(() => load(text, { TOKEN: 'abc\n' })).key).toBe(key);
  });
});
