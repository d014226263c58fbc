// The sandbox's command line for server authors: `elicit-relay sandbox --server …`.
import { describe, expect, it } from 'vitest';
import { UsageError, parseCliArgs, splitCommandLine } from '../../src/sandbox/args.js';

const opts = { cwd: '/home/ada/my-server', taken: ['forms', 'approvals', 'slow'] };

describe('elicit-relay command line', () => {
  it('runs the bot with no arguments, and the sandbox with `sandbox`', () => {
    expect(parseCliArgs([], opts)).toEqual({ command: 'run', servers: [] });
    expect(parseCliArgs(['sandbox'], opts)).toEqual({ command: 'sandbox', servers: [] });
    expect(parseCliArgs(['sandbox', '--help'], opts).command).toBe('help');
  });

  it('adds a stdio server named after its file, started in the current folder', () => {
    const { servers } = parseCliArgs(['sandbox', '--server', 'node ./my-server.js --verbose'], opts);
    expect(servers).toEqual([
      {
        name: 'my-server',
        transport: {
          kind: 'stdio',
          command: 'node',
          args: ['./my-server.js', '--verbose'],
          env: {},
          cwd: '/home/ada/my-server',
        },
        elicitationTimeoutMs: 600_000,
        elicitationMode: 'form',
      },
    ]);
  });

  it('adds a Streamable HTTP server named after its host and port, or the name given', () => {
    const { servers } = parseCliArgs(
      ['sandbox', '--server=https://mcp.example.com/mcp', '--server', 'local=http://127.0.0.1:8080/mcp?x=1'],
      opts,
    );
    expect(servers.map((s) => [s.name, s.transport])).toEqual([
      ['mcp.example.com', { kind: 'http', url: 'https://mcp.example.com/mcp', headers: {} }],
      ['local', { kind: 'http', url: 'http://127.0.0.1:8080/mcp?x=1', headers: {} }],
    ]);
    expect(parseCliArgs(['sandbox', '--server', 'http://127.0.0.1:8080/mcp'], opts).servers[0]?.name).toBe(
      '127.0.0.1-8080',
    );
  });

  it('keeps derived names apart from the examples and from each other; a given name may replace an example', () => {
    const { servers } = parseCliArgs(
      ['sandbox', '--server', 'node forms.ts', '--server', 'node forms.ts', '--server', 'slow=node mine.js'],
      opts,
    );
    expect(servers.map((s) => s.name)).toEqual(['forms-2', 'forms-3', 'slow']);
  });

  it('names a package runner by its package, and splits quotes and escapes as a shell does', () => {
    const { servers } = parseCliArgs(
      ['sandbox', '--server', 'npx -y @modelcontextprotocol/server-everything stdio'],
      opts,
    );
    expect(servers[0]?.name).toBe('stdio');
    expect(splitCommandLine(`node "my server.js" 'a b' c\\ d ""`)).toEqual([
      'node',
      'my server.js',
      'a b',
      'c d',
      '',
    ]);
  });

  it.each([
    [['serve'], 'unknown command "serve"'],
    [['sandbox', '--serve', 'x'], 'unknown option "--serve"'],
    [['sandbox', '--server'], '--server needs a command line or a URL'],
    [['sandbox', '--server', '  '], '--server needs a command line or a URL'],
    [['sandbox', '--server', 'ftp://host/mcp'], 'only http(s) URLs'],
    [['sandbox', '--server', 'node "unclosed'], 'unclosed "'],
    [['sandbox', '--server', 'my-server!=node x.js'], 'cannot be typed in /mcp run'],
  ])('refuses %j with a usage error', (argv, message) => {
    expect(() => parseCliArgs(argv, opts)).toThrow(UsageError);
    expect(() => parseCliArgs(argv, opts)).toThrow(message);
  });
});
