// Outside MCP servers as child processes: server-everything (stdio or Streamable HTTP) and the SDK's own
// example servers, which listen on the port given in PORT and say so on a line of their output.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { McpServerSpec } from '../../src/mcp/types.js';

const require = createRequire(import.meta.url);

const everythingDir = dirname(require.resolve('@modelcontextprotocol/server-everything/package.json'));
const everythingBin = join(everythingDir, 'dist/index.js');
// The SDK's exports map sends require() to dist/cjs; its examples live in dist/esm beside it.
const sdkRoot = require
  .resolve('@modelcontextprotocol/sdk/package.json')
  .replace(/dist\/cjs\/package\.json$/, '');
const sdkExamples = join(sdkRoot, 'dist/esm/examples/server');

/** A port nobody listens on right now (the OS picks it; a child binds it a moment later). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  probe.close();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}

export interface HttpPeer {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts `node script args` with PORT set and resolves once a line of its output matches `ready`. */
export async function startHttpPeer(
  script: string,
  args: string[],
  ready: RegExp,
  path = '/mcp',
  nodeArgs: string[] = [],
  env: Record<string, string> = {},
): Promise<HttpPeer> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
    env: { ...env, PATH: process.env['PATH'] ?? '', PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`${script} exited with ${String(code)} before it listened`);
  });
  const lines = [createInterface({ input: child.stdout }), createInterface({ input: child.stderr })];
  const listening = new Promise<void>((resolve) => {
    for (const reader of lines) reader.on('line', (line) => ready.test(line) && resolve());
  });
  await Promise.race([listening, exited]);
  exited.catch(() => undefined);
  return {
    url: `http://127.0.0.1:${port}${path}`,
    child,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = once(child, 'exit');
      child.kill('SIGKILL');
      await gone;
    },
  };
}

export function everythingStdio(name = 'everything'): McpServerSpec {
  return {
    name,
    transport: { kind: 'stdio', command: process.execPath, args: [everythingBin, 'stdio'], env: {} },
    elicitationTimeoutMs: 60_000,
  };
}

export function startEverythingHttp(): Promise<HttpPeer> {
  return startHttpPeer(everythingBin, ['streamableHttp'], /listening on port/);
}

/** server-everything's legacy HTTP+SSE transport (revision 2024-11-05): GET /sse, POST /message. */
export function startEverythingSse(): Promise<HttpPeer> {
  return startHttpPeer(everythingBin, ['sse'], /Server is running on port/, '/sse');
}

/** The SDK's `elicitationFormExample` (register_user, create_event, update_shipping_address) over HTTP. */
export function startFormExample(): Promise<HttpPeer> {
  return startHttpPeer(join(sdkExamples, 'elicitationFormExample.js'), [], /is running on/);
}

/**
 * The 2026-07-28 fixture (test/fixtures/mrtr-server.ts), stateless Streamable HTTP, run through tsx;
 * `env` e.g. REQUEST_STATE_TTL_S ('-1': the `expiring` tool's requestState is born expired).
 */
export function startMrtrFixture(env: Record<string, string> = {}): Promise<HttpPeer> {
  const script = fileURLToPath(new URL('../fixtures/mrtr-server.ts', import.meta.url));
  return startHttpPeer(script, [], /MRTR fixture listening/, '/mcp', ['--import', 'tsx'], env);
}

export function httpSpec(name: string, url: string): McpServerSpec {
  return { name, transport: { kind: 'http', url, headers: {} }, elicitationTimeoutMs: 60_000 };
}
