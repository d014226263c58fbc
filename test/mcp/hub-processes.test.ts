// End to end over real transports: the fixture server as a stdio child and as a Streamable HTTP child.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpHub } from '../../src/mcp/hub.js';
import type { McpLogger, McpServerSpec } from '../../src/mcp/types.js';
import { fixtureCommand } from '../setup/compiled.js';
import { askArgs, recordingSink, repoRoot } from './support.js';
import { deferred } from '../support/deferred.js';

const accept = recordingSink(() => ({ action: 'accept', content: { name: 'Ada' } }));
const ACCEPTED = { action: 'accept', content: { name: 'Ada' } };

const stdioSpec = (env: Record<string, string> = {}): McpServerSpec => ({
  name: 'stdio-fixture',
  transport: {
    kind: 'stdio',
    ...fixtureCommand(),
    env,
    cwd: repoRoot,
  },
  elicitationTimeoutMs: 60_000,
});

const hubs: McpHub[] = [];
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((hub) => hub.close()));
});
function makeHub(spec: McpServerSpec, logger?: McpLogger): McpHub {
  const hub = new McpHub({ servers: [spec], sink: accept, ...(logger === undefined ? {} : { logger }) });
  hubs.push(hub);
  return hub;
}

describe('McpHub over stdio (fixture as a child process)', () => {
  it('relays an accepted elicitation end to end', async () => {
    const hub = makeHub(stdioSpec());
    const result = await hub.callTool({
      server: 'stdio-fixture',
      tool: 'ask',
      args: askArgs(),
      origin: { userId: 'U1' },
    });
    expect(JSON.parse(result.text)).toEqual(ACCEPTED);
  });

  it('gives the child its configured env but not the bot environment', async () => {
    process.env['ELICIT_RELAY_TEST_SECRET'] = 'do-not-leak';
    try {
      const hub = makeHub(stdioSpec({ GREETING: 'hello' }));
      const getenv = (name: string) =>
        hub.callTool({ server: 'stdio-fixture', tool: 'getenv', args: { name }, origin: { userId: 'U1' } });
      expect((await getenv('GREETING')).text).toBe('hello');
      expect((await getenv('ELICIT_RELAY_TEST_SECRET')).text).toBe('(unset)');
    } finally {
      delete process.env['ELICIT_RELAY_TEST_SECRET'];
    }
  });

  it('forwards the child stderr to the logger line by line', async () => {
    const { promise: seen, resolve: line } = deferred<string>();
    const logger: McpLogger = {
      debug: (obj) => {
        const text = (obj as { stderr?: string }).stderr;
        if (text?.includes('marker-42') === true) line(text);
      },
      warn: () => undefined,
    };
    const hub = makeHub(stdioSpec(), logger);
    await hub.callTool({
      server: 'stdio-fixture',
      tool: 'stderr',
      args: { text: 'marker-42' },
      origin: { userId: 'U1' },
    });
    expect(await seen).toBe('marker-42');
  });

  it('close() ends the child process', async () => {
    const hub = new McpHub({ servers: [stdioSpec()], sink: accept });
    const pid = Number(
      (await hub.callTool({ server: 'stdio-fixture', tool: 'pid', args: {}, origin: { userId: 'U1' } })).text,
    );
    expect(() => process.kill(pid, 0)).not.toThrow();
    await hub.close();
    expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  });

  it('fails the call in flight when the child dies, and starts a new child on the next call', async () => {
    const hub = makeHub(stdioSpec());
    const call = (tool: string) =>
      hub.callTool({ server: 'stdio-fixture', tool, args: {}, origin: { userId: 'U1' } });
    const firstPid = (await call('pid')).text;
    await expect(call('crash')).rejects.toMatchObject({ code: 'connection_closed' });
    const secondPid = (await call('pid')).text;
    expect(secondPid).not.toBe(firstPid);
  });

  it('fails with connect_failed when the command cannot start', async () => {
    const spec: McpServerSpec = {
      ...stdioSpec(),
      transport: { kind: 'stdio', command: '/nonexistent/mcp-server', args: [], env: {} },
    };
    const hub = makeHub(spec);
    await expect(hub.listTools('stdio-fixture')).rejects.toMatchObject({
      code: 'connect_failed',
    });
  });
});

describe('McpHub over Streamable HTTP (fixture as a child process)', () => {
  let child: ChildProcess;
  let url: string;

  beforeAll(async () => {
    const fixture = fixtureCommand();
    child = spawn(fixture.command, [...fixture.args, '--http', '0'], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
    url = `http://127.0.0.1:${/^listening (\d+)$/.exec(line)?.[1]}/mcp`;
  });
  afterAll(async () => {
    child.kill();
    if (child.exitCode === null) await once(child, 'exit');
  });

  const httpSpec = (): McpServerSpec => ({
    name: 'http-fixture',
    transport: { kind: 'http', url, headers: { 'x-test': '1' } },
    elicitationTimeoutMs: 60_000,
  });

  it('relays an accepted elicitation end to end', async () => {
    const hub = makeHub(httpSpec());
    const result = await hub.callTool({
      server: 'http-fixture',
      tool: 'ask',
      args: askArgs(),
      origin: { userId: 'U1' },
    });
    expect(JSON.parse(result.text)).toEqual(ACCEPTED);
  });

  it('keeps separate HTTP sessions per user', async () => {
    const sink = recordingSink(({ ctx }) => ({ action: 'accept', content: { name: ctx.origin.userId } }));
    const hub = new McpHub({ servers: [httpSpec()], sink });
    hubs.push(hub);
    const [a, b] = await Promise.all(
      ['U1', 'U2'].map((userId) =>
        hub.callTool({ server: 'http-fixture', tool: 'ask', args: askArgs(), origin: { userId } }),
      ),
    );
    expect(JSON.parse(a?.text ?? '')).toEqual({ action: 'accept', content: { name: 'U1' } });
    expect(JSON.parse(b?.text ?? '')).toEqual({ action: 'accept', content: { name: 'U2' } });
  });
});
