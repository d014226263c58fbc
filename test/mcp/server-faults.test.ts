// A Streamable HTTP server that disappears in the middle of a question and comes back on the same port:
// the question is withdrawn as 'call_ended', the call fails, the hub shows `reconnecting` and reconnects
// on its own (backoff from 1 s), and the next call works without a restart of the bot.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { McpHub } from '../../src/mcp/hub.js';
import type { ElicitationContext } from '../../src/mcp/types.js';
import { fixtureCommand } from '../setup/compiled.js';
import { askArgs, repoRoot, statusWatch } from './support.js';

async function serveFixture(port: number): Promise<{ child: ChildProcess; port: number }> {
  const fixture = fixtureCommand();
  const child = spawn(fixture.command, [...fixture.args, '--http', String(port)], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  return { child, port: Number(/^listening (\d+)$/.exec(line)?.[1]) };
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = once(child, 'exit');
  child.kill('SIGKILL');
  await gone;
}

const children: ChildProcess[] = [];
let hub: McpHub | undefined;
afterEach(async () => {
  await hub?.close();
  await Promise.all(children.splice(0).map(kill));
});

describe('an HTTP MCP server that disappears and returns', () => {
  it('withdraws its open question, shows reconnecting, then reconnects and serves the next call', async () => {
    const first = await serveFixture(0);
    children.push(first.child);
    const watch = statusWatch();
    const asked: ElicitationContext[] = [];
    let answer: 'wait' | 'accept' = 'wait';
    hub = new McpHub({
      servers: [
        {
          name: 'http',
          transport: { kind: 'http', url: `http://127.0.0.1:${first.port}/mcp`, headers: {} },
          elicitationTimeoutMs: 60_000,
        },
      ],
      onStatus: watch.onStatus,
      sink: {
        ask: (_request, ctx) => {
          asked.push(ctx);
          if (answer === 'accept') return Promise.resolve({ action: 'accept', content: { name: 'Ada' } });
          return new Promise((resolve) =>
            ctx.signal.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true }),
          );
        },
      },
    });
    const connected = watch.next((s) => s.state === 'connected');
    hub.start();
    await connected;

    const call = hub.callTool({ server: 'http', tool: 'ask', args: askArgs(), origin: { userId: 'U1' } });
    const failed = call.then(
      () => 'resolved',
      (error: unknown) => (error as { code?: string }).code,
    );
    while (asked.length === 0) await new Promise((resolve) => setImmediate(resolve));

    const reconnecting = watch.next((s) => s.state === 'reconnecting');
    await kill(first.child);
    expect(await failed).not.toBe('resolved');
    expect(asked[0]?.signal.reason).toBe('call_ended');
    expect((await reconnecting).nextRetryAt).toBeGreaterThan(0);

    const back = watch.next((s) => s.state === 'connected');
    children.push((await serveFixture(first.port)).child);
    await back;

    answer = 'accept';
    const result = await hub.callTool({
      server: 'http',
      tool: 'ask',
      args: askArgs(),
      origin: { userId: 'U1' },
    });
    expect(JSON.parse(result.text)).toEqual({ action: 'accept', content: { name: 'Ada' } });
  });
});
